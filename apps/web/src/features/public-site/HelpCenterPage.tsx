import { Link, useSearchParams } from 'react-router-dom';
import { usePageMeta } from '../../lib/page-meta';
import { useSellingFeeText } from '../../api/use-selling-fee-text';
import { useInspectionDays } from '../../api/use-inspection-days';
import { faq, HELP_SECTIONS, helpSectionOf, HOW_TO_BUY, howToSell, type HelpStep } from './help-center';
import './public-site.css';

/** /help-center?section=how-to-buy|how-to-sell|faq (SPEC §2): unknown sections show How to Buy. */
export function HelpCenterPage() {
  const [params, setParams] = useSearchParams();
  const section = helpSectionOf(params.get('section'));
  const feeText = useSellingFeeText();
  const inspectionDays = useInspectionDays();
  usePageMeta({ title: 'Help Center', description: 'How buying and selling websites on Site Market works: bidding, escrow, invoices, transfers and fees.' });

  return (
    <div className="container section public-page">
      <h1>Help Center</h1>
      <p className="lead">Everything about buying and selling websites on Site Market.</p>
      <div className="help-tabs" role="tablist" aria-label="Help sections">
        {HELP_SECTIONS.map((s) => (
          <button
            key={s.id}
            type="button"
            role="tab"
            id={`help-tab-${s.id}`}
            aria-selected={s.id === section}
            aria-controls="help-panel"
            className={s.id === section ? 'active' : undefined}
            onClick={() => setParams({ section: s.id }, { replace: true })}
          >
            {s.label}
          </button>
        ))}
      </div>
      <section id="help-panel" role="tabpanel" aria-labelledby={`help-tab-${section}`} className="card help-panel">
        {section === 'how-to-buy' && <Steps heading="How to buy a website" steps={HOW_TO_BUY} />}
        {section === 'how-to-sell' && <Steps heading="How to sell your website" steps={howToSell(feeText)} />}
        {section === 'faq' && (
          <>
            <h2>Frequently asked questions</h2>
            <dl className="faq">
              {faq(feeText, inspectionDays).map((entry) => (
                <div key={entry.question}>
                  <dt>{entry.question}</dt>
                  <dd>{entry.answer}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </section>
      <p className="help-more">
        Still need help? <Link to="/contact">Contact our support team</Link>.
      </p>
    </div>
  );
}

function Steps({ heading, steps }: { heading: string; steps: HelpStep[] }) {
  return (
    <>
      <h2>{heading}</h2>
      <ol className="help-steps">
        {steps.map((step) => (
          <li key={step.title}>
            <h3>{step.title}</h3>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
