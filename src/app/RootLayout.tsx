import { Outlet } from '@tanstack/react-router';
import { NavBar } from '../components/NavBar';
import { StepUpHost } from '../features/security/StepUpHost';

export function RootLayout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <StepUpHost />
    </>
  );
}
