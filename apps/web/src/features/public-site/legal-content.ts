/** One section of a legal page. */
export interface LegalSection {
  heading: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  description: string;
  sections: LegalSection[];
}

/** The legal pages' date (SPEC §2). */
export const LEGAL_LAST_UPDATED = 'March 2025';

export const PRIVACY_POLICY: LegalDocument = {
  title: 'Privacy Policy',
  description: 'What Site Market collects about you, why, who we share it with, and your rights.',
  sections: [
    {
      heading: 'What we collect',
      paragraphs: [
        'Your account: username, email address, password (stored only as a salted hash), and the name, bio, website, phone and location you choose to add to your profile.',
        'What you do here: your listings and their screenshots, bids, offers, messages, invoices and payments, and the contact messages you send us.',
        'Technical data: your IP address and request times, kept in our logs to keep the service secure and to limit abuse.',
      ],
    },
    {
      heading: 'Card payments',
      paragraphs: [
        'Card details are entered into our payment provider’s form and go straight to it. We never see or store your card number; we keep the payment’s status, amount and dates.',
      ],
    },
    {
      heading: 'How we use it',
      paragraphs: [
        'To run the marketplace: show your listings, process bids and sales, invoice and hold payments, send you the emails about them, and answer your questions.',
        'To keep it safe: review listings, investigate disputes and fraud, and enforce our Terms of Service.',
        'We email you about your account (verification, password reset) and about activity that concerns you: bids, sales, invoices, payments and messages. We do not send marketing email.',
      ],
    },
    {
      heading: 'Who sees it',
      paragraphs: [
        'Other users see your username, your listings, your bids (by username) and the messages you send them. Your email address is never shown to other users.',
        'We share data with the services that run the marketplace for us (hosting, email delivery, payment processing) and with authorities when the law requires it. We do not sell personal data.',
      ],
    },
    {
      heading: 'How long we keep it',
      paragraphs: [
        'While your account exists. If your account is deleted, your personal data is removed, while invoices and payment records are kept as the law requires.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        'You may see, correct or delete your data, and object to its use. Edit your profile from the dashboard, or contact us for anything else; we answer within 30 days.',
      ],
    },
  ],
};

export const TERMS_OF_SERVICE: LegalDocument = {
  title: 'Terms of Service',
  description: 'The rules for buying and selling websites on Site Market.',
  sections: [
    {
      heading: 'Who may use Site Market',
      paragraphs: ['You must be 18 or older. One account may both buy and sell. Keep your password to yourself: you are responsible for what happens under your account.'],
    },
    {
      heading: 'Listings',
      paragraphs: [
        'Sellers must describe their site honestly, including its revenue, traffic and how it makes money, and must have the right to sell it.',
        'Listings are reviewed within 24 hours before they go live. We may refuse, pause or remove a listing that breaks these terms.',
      ],
    },
    {
      heading: 'Bids, offers and sales',
      paragraphs: [
        'A bid is a binding promise to buy at that price if it wins or is accepted. Auctions are auto (the highest bid at or above any reserve wins at the end) or manual (the seller selects a bid). A seller may always reject any bid.',
        'A sale creates an invoice due in 7 days. Direct purchase is available only below $5,000; from $5,000 up, the purchase is completed through escrow arranged with the seller.',
      ],
    },
    {
      heading: 'Payments and transfers',
      paragraphs: [
        'Payments are in US dollars. A buyer’s card is authorised and the funds are held until the site transfer is verified, then released to the seller. Listing is free. When a success fee is set, the Help Center states it, and the fee in force when a sale’s invoice is created is deducted from the seller’s payout; a change never applies to invoices already created.',
        'Sellers must transfer the domain, files and accounts as described. Buyers may dispute until the funds are released to the seller: during the transfer and for the inspection period after it is verified.',
      ],
    },
    {
      heading: 'Conduct',
      paragraphs: ['No fraud, fake bids, harassment, spam or attempts to take a sale off the platform to avoid these terms. We may suspend accounts that break them.'],
    },
    {
      heading: 'Liability',
      paragraphs: [
        'Site Market is a marketplace: the sale is between buyer and seller. We are not liable for a site’s future performance. Nothing in these terms limits rights you have by law.',
      ],
    },
  ],
};

export const COOKIE_POLICY: LegalDocument = {
  title: 'Cookie Policy',
  description: 'What Site Market stores in your browser and why.',
  sections: [
    {
      heading: 'What we store',
      paragraphs: [
        'We do not use advertising or tracking cookies. The site keeps a few items in your browser’s storage so it works:',
        'In local storage: your sign-in token, so you stay signed in, and during an admin’s support session which account is being viewed (both removed when you sign out); and your preferred browse view (grid or list), kept until you clear it.',
        'In session storage, only until you close the tab: a listing you started before signing in, so it is not lost when you sign in.',
      ],
    },
    {
      heading: 'Payments',
      paragraphs: ['When you pay by card, our payment provider’s form may set its own cookies to prevent fraud. They are covered by the provider’s policy.'],
    },
    {
      heading: 'Your choices',
      paragraphs: [
        'Signing out removes your sign-in token. You can clear everything the site stored through your browser’s settings; you will then need to sign in again.',
      ],
    },
  ],
};
