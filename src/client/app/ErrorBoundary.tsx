import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { isChunkLoadError } from './lazyPage';

type Props = { children: ReactNode; home: string };
type State = { error: unknown };

/**
 * A route's safety net: a page that throws while rendering (or whose code cannot be
 * loaded) shows this card instead of a blank screen; the layout around it stays.
 * Routes remount it by key, so moving to another page starts clean. One more around
 * the whole app catches what the frame itself (top bar, menus) throws.
 */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Page failed', error, info.componentStack);
  }

  private retry = () => {
    // A chunk that failed twice will not load in this page: fetch the app again.
    if (isChunkLoadError(this.state.error)) window.location.reload();
    else this.setState({ error: null });
  };

  render() {
    if (this.state.error === null) return this.props.children;
    const chunk = isChunkLoadError(this.state.error);
    return (
      <div className="card route-error" role="alert">
        <h1>{chunk ? 'This page could not be loaded' : 'Something went wrong on this page'}</h1>
        <p className="muted">
          {chunk
            ? 'Please check your connection and try again.'
            : 'Please try again. If it keeps happening, contact support.'}
        </p>
        <p className="route-error-actions">
          <button type="button" className="btn btn-primary" onClick={this.retry}>
            Try again
          </button>
          <Link href={this.props.home} className="btn btn-secondary">
            Go to the home page
          </Link>
        </p>
      </div>
    );
  }
}
