import { SELL_STEPS, SELL_STEP_COUNT } from '../../lib/listing-form';

/** 'Step N of 5', the percentage step/5 and the step names (SPEC §2). */
export function WizardProgress({ step }: { step: number }) {
  const percent = Math.round((step / SELL_STEP_COUNT) * 100);
  return (
    <div className="wizard-progress">
      <div className="wizard-progress-text">
        <strong>
          Step {step} of {SELL_STEP_COUNT}: {SELL_STEPS[step - 1].title}
        </strong>
        <span className="muted">{percent}% complete</span>
      </div>
      <div className="bar" role="progressbar" aria-label="Wizard progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div style={{ width: `${percent}%` }} />
      </div>
      <ol className="wizard-steps">
        {SELL_STEPS.map((item, index) => (
          <li key={item.title} className={index + 1 === step ? 'current' : index + 1 < step ? 'done' : ''} aria-current={index + 1 === step ? 'step' : undefined}>
            <span className="wizard-step-number">{index + 1}</span>
            <span className="wizard-step-title">{item.title}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
