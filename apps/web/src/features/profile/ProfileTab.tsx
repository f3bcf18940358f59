import type { UserDto } from '@market/contracts';
import { readImpersonation } from '../../lib/impersonation';
import { SessionsSection } from './SessionsSection';
import { PaymentMethodSection } from './PaymentMethodSection';
import { ProfileForm } from './ProfileForm';
import { EmailStatus } from './EmailStatus';
import { PasswordForm } from './PasswordForm';

/**
 * Profile tab: personal details, email verification, the saved card (ADR 0041), the password and the login sessions
 * (SPEC §2, §5, ADR 0030).
 * While an admin impersonates, the sessions and the saved card are the user's own business and are not shown.
 */
export function ProfileTab({ user, impersonating = readImpersonation() !== null }: { user: UserDto; impersonating?: boolean }) {
  return (
    <>
      <div className="two-col">
        <ProfileForm user={user} />
        <div>
          <EmailStatus user={user} />
          {!impersonating && <PaymentMethodSection />}
          <PasswordForm />
        </div>
      </div>
      {!impersonating && <SessionsSection />}
    </>
  );
}
