import { Link } from 'react-router-dom';
import { usePageMeta } from '../../lib/page-meta';
import { COOKIE_POLICY, LEGAL_LAST_UPDATED, PRIVACY_POLICY, TERMS_OF_SERVICE, type LegalDocument } from './legal-content';
import './public-site.css';

/** A legal page (SPEC §2): its sections, last updated March 2025. */
export function LegalPage({ document: doc }: { document: LegalDocument }) {
  usePageMeta({ title: doc.title, description: doc.description });
  return (
    <div className="container section public-page">
      <h1>{doc.title}</h1>
      <p className="muted">Last updated: {LEGAL_LAST_UPDATED}</p>
      <article className="card prose">
        {doc.sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </section>
        ))}
        <p>
          Questions? <Link to="/contact">Contact us</Link>.
        </p>
      </article>
    </div>
  );
}

/** /privacy-policy. */
export const PrivacyPolicyPage = () => <LegalPage document={PRIVACY_POLICY} />;
/** /terms-of-service. */
export const TermsOfServicePage = () => <LegalPage document={TERMS_OF_SERVICE} />;
/** /cookie-policy. */
export const CookiePolicyPage = () => <LegalPage document={COOKIE_POLICY} />;
