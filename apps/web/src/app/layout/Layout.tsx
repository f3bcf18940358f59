import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Header } from './Header';
import { Footer } from './Footer';
import { ImpersonationBanner } from './ImpersonationBanner';
import { TestModeBanner } from './TestModeBanner';

/** Page frame; scroll resets to the top on every route change (SPEC §2). The sandbox's TEST MODE banner on every page (ADR 0033). */
export function Layout() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <div className="page">
      <TestModeBanner />
      <ImpersonationBanner />
      <Header />
      <main className="page-main">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
