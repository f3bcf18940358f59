import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Header } from './Header';
import { Footer } from './Footer';
import { ImpersonationBanner } from './ImpersonationBanner';
import { TestModeBanner } from './TestModeBanner';

/** Page frame; scroll resets to the top on every route change (SPEC §2). The sandbox's TEST MODE banner on every page (ADR 0033). */
export function Layout() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    // Only when the route changes: the page the browser loaded keeps where its visitor has scrolled to before the app
    // took it over (ADR 0072, amended), and a reload where the browser restored it.
    if (shown.current === pathname) return;
    shown.current = pathname;
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
