import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Header } from './Header';
import { Footer } from './Footer';
import { ImpersonationBanner } from './ImpersonationBanner';
import { TestModeBanner } from './TestModeBanner';

/** The path of the page the browser loaded, until the first route change. */
let loadedPath: string | null = typeof window === 'undefined' ? null : window.location.pathname;

/** Page frame; scroll resets to the top on every route change (SPEC §2). The sandbox's TEST MODE banner on every page (ADR 0033). */
export function Layout() {
  const { pathname } = useLocation();
  useEffect(() => {
    // Not for the page the browser loaded: it keeps where its visitor scrolled to before the app took it over (ADR 0072,
    // amended), or where a reload restored it. Every later page starts at the top, after an error page too.
    if (pathname === loadedPath) return;
    loadedPath = null;
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
