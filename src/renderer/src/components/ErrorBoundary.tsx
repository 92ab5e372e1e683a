// Keeps one broken part of the UI from blanking the rest: whatever a beacon held (any id, URL or text
// a web page can send), a view that fails to render says what could not be shown and the others go on.
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** what this part shows, for the message: "the page list", "this page" */
  what: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(
      `search-sandbox UI: could not show ${this.props.what}:`,
      error,
      info.componentStack,
    );
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="state-box error" role="alert" data-testid="view-error">
        <h2>Could not show {this.props.what}</h2>
        <p>
          Something in the recorded data could not be displayed here ({error.message}). The rest of
          the sandbox keeps working; the data is unchanged.
        </p>
        <button type="button" className="btn" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
