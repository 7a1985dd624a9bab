/** The business constants of spec section 9 (storefront) and its back-office twin, in one place. */

export const SHOP_NAME = 'Stillwater';
export const COPYRIGHT_YEAR = 2025;
export const CURRENCY = 'USD';

/** Header carrying the CSRF token on every state-changing request (lower case, as Node reports headers). */
export const CSRF_HEADER = 'x-csrf-token';

export const LOW_STOCK_THRESHOLD = 10;
export const ADDED_TO_CART_FEEDBACK_MS = 2000;

export const REVIEW_PAGE_SIZE = 10;
export const HOME_REVIEWS_FETCH = 60;
export const HOME_REVIEWS_MIN_RATING = 4.5;
export const PRODUCT_PAGE_REVIEWS_FETCH = 8;
export const PRODUCT_PAGE_REVIEWS_SHOWN = 3;
export const DEFAULT_REVIEWS_FETCH = 40;
export const REVIEW_TITLE_MAX = 100;
export const REVIEW_CONTENT_MAX = 1000;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const REGISTRATION_PASSWORD_MIN = 6;
export const RESET_PASSWORD_MIN = 8;
export const EMAIL_MAX = 254;
export const VALIDATION_DEBOUNCE_MS = 300;

export const CAROUSEL_INTERVAL_MS = 4000;
export const CAROUSEL_TRANSITION_MS = 150;
export const SCROLLER_PX_PER_FRAME = 0.18;
export const SCROLLER_RESUME_MS = 250;
export const SWIPE_THRESHOLD_PX = 40;
export const TAP_THRESHOLD_PX = 10;
export const RATING_DROPDOWN_CLOSE_MS = 250;
export const RESET_REDIRECT_MS = 2000;

export const PAYMENT_META_VERSION = 2;
export const FEATURE_TAG_MAX_CHARS = 12;
export const LISTING_FETCH_LIMIT = 100;
export const BEST_SELLERS_LIMIT = 50;
export const ADMIN_PAGE_SIZE = 10;
/** Back office (spec 4 and 9): messages clear after 5 s, the upload status after 3 s. */
export const ADMIN_MESSAGE_CLEAR_MS = 5000;
export const UPLOAD_STATUS_CLEAR_MS = 3000;
/** Admin lists load the next page within this distance of the page's bottom. */
export const INFINITE_SCROLL_THRESHOLD_PX = 100;

/** The longest search term the API takes (GET /api/products/search/:term), and the search box's maxLength. */
export const SEARCH_TERM_MAX = 100;

/** The largest page any list endpoint serves. */
export const MAX_PAGE_LIMIT = 100;
/** The product shown at /product with no slug, and the store's first product. */
export const DEFAULT_PRODUCT_SLUG = 'desktop-fountain';

/** The longest page path a page view keeps (longer ones are refused, not cut: they are not our pages). */
export const MAX_PAGE_LENGTH = 512;

/**
 * The header in which the browser states the visitor's consent to ad tracking (`granted`): the
 * choice lives in the browser's storage. A browser sending Global Privacy Control is refused anyway.
 */
export const TRACKING_CONSENT_HEADER = 'x-tracking-consent';

/** Spec section 9: the tracking test event code is fixed (the server drops it in production). */
export const TRACKING_TEST_EVENT_CODE = 'TEST74302';
