import { CATEGORIES } from '@market/domain';
import { TextAreaField } from '../../components/form/TextAreaField';
import { TextField } from '../../components/form/TextField';
import type { StepProps } from './step-props';

const CATEGORY_BLURBS: Record<(typeof CATEGORIES)[number], string> = {
  Blog: 'Articles, ad and affiliate income',
  'E-commerce': 'Online stores selling products',
  SaaS: 'Software sold as a subscription',
  'Content Site': 'Guides, reviews and media',
  'Affiliate Site': 'Earns commissions on referrals',
  'Membership Site': 'Paid communities and courses',
  'Local Business': 'Sites serving a local market',
  Newsletter: 'Email audience and sponsorships',
};

/** Step 1: title, website URL, category cards (D1) and description. */
export function BasicInfoStep({ values, errors, set }: StepProps) {
  return (
    <div>
      <h2>Basic Info</h2>
      <p className="muted">Tell buyers what you are selling.</p>
      <TextField label="Listing title" name="title" value={values.title} onChange={(v) => set('title', v)} error={errors.title} placeholder="e.g. Profitable SaaS for dentists" requiredMark />
      <TextField
        label="Website URL"
        name="website_url"
        type="url"
        value={values.website_url}
        onChange={(v) => set('website_url', v)}
        error={errors.website_url}
        placeholder="https://example.com"
        requiredMark
      />
      <fieldset className="form-fieldset" aria-describedby={errors.category ? 'category-error' : undefined}>
        <legend>
          Category<span className="required-mark"> *</span>
        </legend>
        <div className="category-cards">
          {CATEGORIES.map((category) => (
            <label key={category} className={`category-card${values.category === category ? ' selected' : ''}`}>
              <input
                type="radio"
                name="category"
                value={category}
                checked={values.category === category}
                onChange={() => set('category', category)}
                aria-invalid={Boolean(errors.category)}
              />
              <strong>{category}</strong>
              <small className="muted">{CATEGORY_BLURBS[category]}</small>
            </label>
          ))}
        </div>
        {errors.category && (
          <small id="category-error" className="field-error">
            {errors.category}
          </small>
        )}
      </fieldset>
      <TextAreaField
        label="Description"
        name="description"
        rows={6}
        value={values.description}
        onChange={(v) => set('description', v)}
        error={errors.description}
        placeholder="What the site does, its audience, how it earns and why it is a good buy"
        requiredMark
      />
    </div>
  );
}
