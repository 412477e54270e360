import { Link } from 'wouter';

/** "Login" and "Register" for a visitor, in the site header and the dashboard's top bar alike. */
export function GuestLinks({ loginClassName }: { loginClassName: string }) {
  return (
    <>
      <Link href="/login" className={loginClassName}>
        Login
      </Link>
      <Link href="/register" className="btn btn-primary btn-sm">
        Register
      </Link>
    </>
  );
}
