import { pageWindow } from './browse-params';

interface PaginationProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

/** Previous, at most seven page numbers around the current one, and Next (SPEC §2). */
export function Pagination({ page, pages, onPage }: PaginationProps) {
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pagination">
      <button type="button" className="btn btn-ghost btn-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <ol>
        {pageWindow(page, pages).map((number) => (
          <li key={number}>
            <button
              type="button"
              className={`btn btn-small ${number === page ? 'btn-primary' : 'btn-ghost'}`}
              aria-label={`Page ${number}`}
              aria-current={number === page ? 'page' : undefined}
              onClick={() => onPage(number)}
            >
              {number}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-ghost btn-small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
