// "Skip to content": the first stop of the keyboard on a workspace page, past the header and the
// sections, to the page itself (WCAG 2.4.1).
import './SkipLink.css';

export const MAIN_ID = 'main-content';

export function SkipLink() {
  return (
    <a
      className="hark-skip-link"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        // Focus the page without a hash in the URL (the router owns it).
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      Skip to content
    </a>
  );
}
