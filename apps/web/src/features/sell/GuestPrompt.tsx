import { Link } from 'react-router-dom';

/** Shown to a guest after step 1: the data is kept; sign up or log in to carry on (SPEC §2). */
export function GuestPrompt({ title, onBack }: { title: string; onBack: () => void }) {
  return (
    <div className="card sell-card guest-prompt narrow-wide" role="status">
      <h1>Almost there!</h1>
      <p>
        We saved the basics of <strong>{title}</strong>. Create a free account or log in to add the financials, pricing and screenshots, and submit your
        listing.
      </p>
      <div className="sell-actions">
        <Link className="btn btn-primary" to="/register">
          Create Account
        </Link>
        <Link className="btn btn-secondary" to="/login">
          Log In
        </Link>
      </div>
      <button type="button" className="link-button" onClick={onBack}>
        ← Back to edit
      </button>
    </div>
  );
}
