import { Route, Routes } from 'react-router-dom';
import { LandingPage } from '../pages/landing-page';
import { NotFoundPage } from '../pages/not-found-page';
import { Providers } from './providers';

/** SPEC §2's routes. The router itself is chosen by the caller (browser, or static at build). */
export function App() {
  return (
    <Providers>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Providers>
  );
}
