/** The Stillwater mark: a drop over three ripples. */
export function LogoMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="15" fill="#e4ebe6" />
      <path d="M16 5.5c3.2 4.2 5.2 7.3 5.2 9.8a5.2 5.2 0 0 1-10.4 0c0-2.5 2-5.6 5.2-9.8z" fill="#4b6854" />
      <path
        d="M7 22.5c2.9 1.7 5.8 1.7 9 0s6.1-1.7 9 0"
        fill="none"
        stroke="#5f7f69"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
      <path
        d="M9.5 26c2.2 1 4.4 1 6.5 0s4.3-1 6.5 0"
        fill="none"
        stroke="#a3baa9"
        strokeWidth="1.4"
        strokeLinecap="round"
      />
    </svg>
  );
}
