import type { ReactNode } from 'react';

/** Inline SVG icons (bundled, no icon font or CDN): 16px, stroke in the current text colour. */
function Icon({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** Plus sign. */
export const IconPlus = () => (
  <Icon>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);

/** Magnifying glass. */
export const IconSearch = () => (
  <Icon>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Icon>
);

/** Circular arrow. */
export const IconRefresh = () => (
  <Icon>
    <path d="M21 12a9 9 0 1 1-2.64-6.36" />
    <path d="M21 3v6h-6" />
  </Icon>
);

/** Clock face. */
export const IconClock = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
);

/** Trash can. */
export const IconTrash = () => (
  <Icon>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  </Icon>
);

/** Floppy disk. */
export const IconSave = () => (
  <Icon>
    <path d="M5 3h11l3 3v15H5z" />
    <path d="M8 3v5h7V3M8 21v-7h8v7" />
  </Icon>
);

/** Left arrow. */
export const IconArrowLeft = () => (
  <Icon>
    <path d="M19 12H5M11 18l-6-6 6-6" />
  </Icon>
);

/** Chevron pointing left. */
export const IconChevronLeft = () => (
  <Icon>
    <path d="m15 18-6-6 6-6" />
  </Icon>
);

/** Chevron pointing right. */
export const IconChevronRight = () => (
  <Icon>
    <path d="m9 18 6-6-6-6" />
  </Icon>
);

/** Up/down arrows of a sortable column; the active direction is drawn stronger by CSS. */
export const IconSort = ({ direction }: { direction: 'asc' | 'desc' | null }) => (
  <Icon size={14}>
    <path className={direction === 'asc' ? 'sort-on' : 'sort-off'} d="m7 9 5-5 5 5" />
    <path className={direction === 'desc' ? 'sort-on' : 'sort-off'} d="m7 15 5 5 5-5" />
  </Icon>
);

/** Stack of documents. */
export const IconCollection = () => (
  <Icon>
    <path d="M4 6h16M4 12h16M4 18h10" />
  </Icon>
);

/** Warning triangle. */
export const IconAlert = () => (
  <Icon>
    <path d="M12 3 2 20h20z" />
    <path d="M12 10v4M12 17h.01" />
  </Icon>
);

/** Empty inbox tray. */
export const IconInbox = ({ size = 32 }: { size?: number }) => (
  <Icon size={size}>
    <path d="M3 13h5l2 3h4l2-3h5" />
    <path d="M5 5h14l2 8v6H3v-6z" />
  </Icon>
);

/** Check mark. */
export const IconCheck = () => (
  <Icon>
    <path d="m5 12 5 5 9-10" />
  </Icon>
);

/** Cross. */
export const IconClose = () => (
  <Icon>
    <path d="M6 6l12 12M18 6 6 18" />
  </Icon>
);

/** Padlock. */
export const IconLock = ({ size = 16 }: { size?: number }) => (
  <Icon size={size}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </Icon>
);

/** Globe, for the search-engine listing. */
export const IconGlobe = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
  </Icon>
);

/** Chevron pointing down. */
export const IconChevronDown = () => (
  <Icon>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

/** Arrow leaving a box: opens elsewhere. */
export const IconExternal = () => (
  <Icon>
    <path d="M14 4h6v6M20 4l-9 9" />
    <path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
  </Icon>
);

/** Picture frame with a mountain. */
export const IconImage = () => (
  <Icon>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="2" />
    <path d="m21 16-5-5-9 9" />
  </Icon>
);

/** Arrow rising out of a tray. */
export const IconUpload = () => (
  <Icon>
    <path d="M12 15V4M7 9l5-5 5 5" />
    <path d="M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4" />
  </Icon>
);

/** Chain link. */
export const IconLink = () => (
  <Icon>
    <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1" />
    <path d="M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1" />
  </Icon>
);

/** Bulleted list. */
export const IconList = () => (
  <Icon>
    <path d="M9 6h11M9 12h11M9 18h11" />
    <path d="M4.5 6h.01M4.5 12h.01M4.5 18h.01" />
  </Icon>
);

/** Numbered list. */
export const IconListOrdered = () => (
  <Icon>
    <path d="M10 6h10M10 12h10M10 18h10" />
    <path d="M4 5l1.5-1V9M3.5 14.5a1.5 1.5 0 0 1 3 .5L3.5 19h3" />
  </Icon>
);

/** Quotation mark. */
export const IconQuote = () => (
  <Icon>
    <path d="M7 7H4v6h3l-1 4M17 7h-3v6h3l-1 4" />
  </Icon>
);

/** Angle brackets. */
export const IconCode = () => (
  <Icon>
    <path d="m8 7-5 5 5 5M16 7l5 5-5 5" />
  </Icon>
);

/** Arrow pointing up. */
export const IconArrowUp = () => (
  <Icon>
    <path d="M12 19V5M6 11l6-6 6 6" />
  </Icon>
);

/** Arrow pointing down. */
export const IconArrowDown = () => (
  <Icon>
    <path d="M12 5v14M6 13l6 6 6-6" />
  </Icon>
);

/** Stacked layers: the content model. */
export const IconLayers = () => (
  <Icon>
    <path d="m12 3 9 5-9 5-9-5z" />
    <path d="m3 13 9 5 9-5" />
  </Icon>
);

/** Eye: preview. */
export const IconEye = () => (
  <Icon>
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
);
