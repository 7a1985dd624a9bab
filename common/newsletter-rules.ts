/**
 * The newsletter's rules that the server and the back office share (no zod here: the browser
 * imports it). Spec 5: a send needs both a subject and content, with this sentence otherwise.
 */
export const SEND_FIELDS_REQUIRED = 'Please fill in both subject and content';
export const NEWSLETTER_SUBJECT_MAX = 200;
export const NEWSLETTER_CONTENT_MAX = 50_000;
