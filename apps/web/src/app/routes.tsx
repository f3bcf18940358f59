import type { RouteObject } from 'react-router-dom';
import { Layout } from './layout/Layout';
import { HomePage } from '../pages/HomePage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { ErrorPage } from '../pages/ErrorPage';

/** What a route tells the server renderer (ADR 0072): that it renders there, and its module for the build manifest. */
export interface RouteHandle {
  serverRendered: true;
  /** The lazy page's source, as Vite's manifest names it, so the server links its styles and scripts. */
  source?: string;
}

/** Marks a public page the server renders (ADR 0072); signed-in and one-time-link pages stay in the browser. */
const onServer = (source?: string): { handle: RouteHandle } => ({ handle: { serverRendered: true, ...(source ? { source } : {}) } });

/** Every route of the web app (SPEC §2): the browser's router and the server renderer's (ADR 0072) are made from these. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      { path: '/', element: <HomePage />, ...onServer() },
      { path: '/browse', ...onServer('src/features/browse/BrowsePage.tsx'), lazy: () => import('../features/browse/BrowsePage').then((m) => ({ Component: m.BrowsePage })) },
      {
        path: '/listing/:listingId', ...onServer('src/features/listing-detail/ListingDetailPage.tsx'),
        lazy: () => import('../features/listing-detail/ListingDetailPage').then((m) => ({ Component: m.ListingDetailPage })),
      },
      {
        // A seller's public page (D23, ADR 0083): profile, rating, reviews and live listings; crawled like a listing.
        path: '/seller/:username', ...onServer('src/features/seller-page/SellerPage.tsx'),
        lazy: () => import('../features/seller-page/SellerPage').then((m) => ({ Component: m.SellerPage })),
      },
      { path: '/login', lazy: () => import('../features/auth/LoginPage').then((m) => ({ Component: m.LoginPage })) },
      { path: '/register', lazy: () => import('../features/auth/RegisterPage').then((m) => ({ Component: m.RegisterPage })) },
      { path: '/verify-email', lazy: () => import('../features/auth/VerifyEmailPage').then((m) => ({ Component: m.VerifyEmailPage })) },
      { path: '/reset-password', lazy: () => import('../features/auth/ResetPasswordPage').then((m) => ({ Component: m.ResetPasswordPage })) },
      {
        path: '/undo-email-change',
        lazy: () => import('../features/auth/UndoEmailChangePage').then((m) => ({ Component: m.UndoEmailChangePage })),
      },
      {
        // Where Google sends a seller back after allowing read-only Google Analytics (D24, ADR 0084): a one-time link.
        path: '/verify/ga4',
        lazy: () => import('../features/listing-detail/VerifyGa4Page').then((m) => ({ Component: m.VerifyGa4Page })),
      },
      { path: '/dashboard', lazy: () => import('../pages/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
      { path: '/unsubscribe/:token', lazy: () => import('../features/saved-searches/UnsubscribePage').then((m) => ({ Component: m.UnsubscribePage })) },
      { path: '/sell', lazy: () => import('../features/sell/SellPage').then((m) => ({ Component: m.SellPage })) },
      {
        path: '/edit-listing/:id',
        lazy: () => import('../features/edit-listing/EditListingPage').then((m) => ({ Component: m.EditListingPage })),
      },
      {
        path: '/payment-success',
        lazy: () => import('../features/payments/PaymentResultPages').then((m) => ({ Component: m.PaymentSuccessPage })),
      },
      {
        path: '/payment-cancel',
        lazy: () => import('../features/payments/PaymentCancelPage').then((m) => ({ Component: m.PaymentCancelPage })),
      },
      {
        // The sandbox provider's hosted checkout (D12, ADR 0020): buy-now's checkout_url.
        path: '/sandbox-checkout/:sessionId',
        lazy: () => import('../features/payments/SandboxCheckoutPage').then((m) => ({ Component: m.SandboxCheckoutPage })),
      },
      {
        // The sandbox provider's hosted payout onboarding (D12, D22): "Set up payouts" leads here while the sandbox runs.
        path: '/sandbox-onboarding/:linkId',
        lazy: () => import('../features/payouts/SandboxOnboardingPage').then((m) => ({ Component: m.SandboxOnboardingPage })),
      },
      { path: '/help-center', ...onServer('src/features/public-site/HelpCenterPage.tsx'), lazy: () => import('../features/public-site/HelpCenterPage').then((m) => ({ Component: m.HelpCenterPage })) },
      { path: '/about', ...onServer('src/features/public-site/AboutPage.tsx'), lazy: () => import('../features/public-site/AboutPage').then((m) => ({ Component: m.AboutPage })) },
      { path: '/contact', ...onServer('src/features/public-site/ContactPage.tsx'), lazy: () => import('../features/public-site/ContactPage').then((m) => ({ Component: m.ContactPage })) },
      { path: '/privacy-policy', ...onServer('src/features/public-site/LegalPage.tsx'), lazy: () => import('../features/public-site/LegalPage').then((m) => ({ Component: m.PrivacyPolicyPage })) },
      { path: '/terms-of-service', ...onServer('src/features/public-site/LegalPage.tsx'), lazy: () => import('../features/public-site/LegalPage').then((m) => ({ Component: m.TermsOfServicePage })) },
      { path: '/cookie-policy', ...onServer('src/features/public-site/LegalPage.tsx'), lazy: () => import('../features/public-site/LegalPage').then((m) => ({ Component: m.CookiePolicyPage })) },
      { path: '*', element: <NotFoundPage />, ...onServer() },
    ],
  },
];
