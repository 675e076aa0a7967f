import {
  ArrowDown,
  ArrowLeft,
  ArrowUp,
  Check,
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  Clock,
  Code,
  CopyPlus,
  ExternalLink,
  Eye,
  Globe,
  GripVertical,
  Icon,
  Image,
  Inbox,
  Keyboard,
  Layers,
  Link,
  List,
  ListOrdered,
  Lock,
  type LucideIcon,
  type LucideIconNode,
  Menu,
  Plus,
  Quote,
  RotateCw,
  Save,
  ScrollText,
  Search,
  TextAlignStart,
  Trash,
  TriangleAlert,
  Upload,
  Webhook,
  X,
} from 'lucide-react';
import { memo } from 'react';

// Lucide icons, bundled (imports name single icons, so only these reach the bundle). The names stay
// ours so a page says what it means ("close"), not which drawing stands for it ("X").

/**
 * One icon in the editor's style: the `icon` class the styles size and colour by, hidden from screen
 * readers. Memoised: a lucide icon costs several times a static SVG to render (it builds its
 * attributes each time), and an icon never changes when the form around it re-renders per keystroke.
 */
function glyph(Drawing: LucideIcon, defaultSize = 16) {
  return memo(({ size = defaultSize }: { size?: number }) => (
    <Drawing className="icon" size={size} aria-hidden="true" focusable="false" />
  ));
}

/** Plus sign. */
export const IconPlus = glyph(Plus);
/** Magnifying glass. */
export const IconSearch = glyph(Search);
/** Circular arrow. */
export const IconRefresh = glyph(RotateCw);
/** Clock face. */
export const IconClock = glyph(Clock);
/** Trash can. */
export const IconTrash = glyph(Trash);
/** Floppy disk. */
export const IconSave = glyph(Save);
/** Left arrow. */
export const IconArrowLeft = glyph(ArrowLeft);
/** Chevron pointing left. */
export const IconChevronLeft = glyph(ChevronLeft);
/** Chevron pointing right. */
export const IconChevronRight = glyph(ChevronRight);
/** Lines of text: a collection of rows. */
export const IconCollection = glyph(TextAlignStart);
/** Warning triangle. */
export const IconAlert = glyph(TriangleAlert);
/** Empty inbox tray (32px: it heads empty states). */
export const IconInbox = glyph(Inbox, 32);
/** Check mark. */
export const IconCheck = glyph(Check);
/** Cross. */
export const IconClose = glyph(X);
/** Padlock. */
export const IconLock = glyph(Lock);
/** Globe, for the search-engine listing. */
export const IconGlobe = glyph(Globe);
/** Chevron pointing down. */
export const IconChevronDown = glyph(ChevronDown);
/** Arrow leaving a box: opens elsewhere. */
export const IconExternal = glyph(ExternalLink);
/** Picture frame with a mountain. */
export const IconImage = glyph(Image);
/** Arrow rising out of a tray. */
export const IconUpload = glyph(Upload);
/** Chain link. */
export const IconLink = glyph(Link);
/** Bulleted list. */
export const IconList = glyph(List);
/** Numbered list. */
export const IconListOrdered = glyph(ListOrdered);
/** Quotation mark. */
export const IconQuote = glyph(Quote);
/** Angle brackets. */
export const IconCode = glyph(Code);
/** Arrow pointing up. */
export const IconArrowUp = glyph(ArrowUp);
/** Arrow pointing down. */
export const IconArrowDown = glyph(ArrowDown);
/** Stacked layers: the content model. */
export const IconLayers = glyph(Layers);
/** Eye: preview. */
export const IconEye = glyph(Eye);

export const IconWebhook = glyph(Webhook);
/** A scroll of text: the audit log. */
export const IconAudit = glyph(ScrollText);
/** Three lines: opens the navigation on a narrow window. */
export const IconMenu = glyph(Menu, 20);
/** A keyboard: the shortcuts. */
export const IconKeyboard = glyph(Keyboard);
/** Two pages, one with a plus: duplicate. */
export const IconDuplicate = glyph(CopyPlus);
/** Six dots: a handle to drag by. */
export const IconGrip = glyph(GripVertical);

/**
 * Lucide's chevrons-up-down drawn as two halves, because the styles mark the active direction on its
 * own half (`sort-on`); lucide's component cannot put a class on one path.
 */
const sortNode = (direction: 'asc' | 'desc' | null): LucideIconNode[] => [
  ['path', { key: 'up', d: 'm7 9 5-5 5 5', className: direction === 'asc' ? 'sort-on' : 'sort-off' }],
  ['path', { key: 'down', d: 'm7 15 5 5 5-5', className: direction === 'desc' ? 'sort-on' : 'sort-off' }],
];

/** Up/down chevrons of a sortable column; the active direction is drawn stronger by CSS. */
export const IconSort = memo(({ direction }: { direction: 'asc' | 'desc' | null }) => (
  <Icon iconNode={sortNode(direction)} className="icon" size={14} aria-hidden="true" focusable="false" />
));
