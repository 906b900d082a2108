import { Component, type ReactNode } from "react";
import { RouteErrorPage } from "../pages/route-error-page";

interface Props {
  /** Changing this (the pathname) clears a caught error, so navigating away recovers. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  resetKey: string;
}

/**
 * Catches a crashing screen or a lazy chunk that failed to load (e.g. after a
 * deploy). React itself reports the error to the console.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override render() {
    return this.state.error ? <RouteErrorPage /> : this.props.children;
  }
}
