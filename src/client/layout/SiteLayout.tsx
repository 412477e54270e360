import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useSession } from '../session/session';
import { GuestLinks } from '../session/GuestLinks';
import { ContactLink, CommunityLinks } from './support';
import { Logo } from '../ui/Logo';
import { SupportLauncher } from './SupportLauncher';
import './site.css';

/**
 * Header and footer of the public pages (landing, pricing, FAQ, login...). `minimal`
 * is the maintenance app's version: no links to pages that do not exist there.
 */
export function SiteLayout({ children, minimal = false }: { children: ReactNode; minimal?: boolean }) {
  const { user } = useSession();
  if (minimal) {
    return (
      <div className="site">
        <header className="site-header">
          <div className="container site-header-inner">
            <Logo to="/maintenance" />
          </div>
        </header>
        <main className="site-main">{children}</main>
      </div>
    );
  }
  return (
    <div className="site">
      <header className="site-header">
        <div className="container site-header-inner">
          <Logo />
          <nav className="site-nav" aria-label="Main">
            <Link href="/dashboard">Coins</Link>
            <Link href="/pricing">Pricing</Link>
            <Link href="/faq">FAQ</Link>
          </nav>
          <div className="site-actions">
            <SupportLauncher />
            {user ? (
              <Link href="/dashboard" className="btn btn-primary btn-sm">
                Dashboard
              </Link>
            ) : (
              <GuestLinks loginClassName="btn btn-ghost btn-sm" />
            )}
          </div>
        </div>
      </header>
      <main className="site-main">{children}</main>
      <SiteFooter />
    </div>
  );
}

/** The footer of public and dashboard pages: site links, the contact address and the community links. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container site-footer-inner">
        <span>© {new Date().getFullYear()} Nodekeep</span>
        <nav aria-label="Footer">
          <Link href="/pricing">Pricing</Link>
          <Link href="/faq">FAQ</Link>
          <ContactLink optional>Contact</ContactLink>
        </nav>
        <CommunityLinks className="footer-community" withEmail={false} />
      </div>
    </footer>
  );
}

/** The centred card of the login, register, recover and reset pages. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="auth-wrap">
      <section className="card auth-card">
        <h1>{title}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
        {children}
      </section>
    </div>
  );
}
