/**
 * What `scanInline` finds, shared by its stages: the public types that
 * `scan_inline.ts` re-exports.
 *
 * @module
 */

/** A link or image found by `scanInline`. */
export interface InlineLink {
  /** Offset of the opening `[` (or `!`) in the scanned text. */
  offset: number;
  /** The destination as written (without `<` `>`); empty for `[t]()`. */
  destination: string;
  /** `![alt](src)` rather than `[text](href)`. */
  image: boolean;
}

/** A code span found by `scanInline`. */
export interface InlineCode {
  /** Offset of the opening backticks. */
  offset: number;
  /** The span's content, normalised as CommonMark does (line endings → spaces, one padding space stripped). */
  content: string;
}

/** A raw HTML start tag found by `scanInline` or `scanHtml`. */
export interface HtmlTag {
  /** Offset of `<`. */
  offset: number;
  /** Lower-case tag name. */
  name: string;
  /** Attributes by lower-case name, entity-decoded (first one wins). */
  attributes: Map<string, string>;
}

/** What `scanInline` found. */
export interface InlineScan {
  /** Links and images, by offset. */
  links: InlineLink[];
  /** Code spans, by offset. */
  codeSpans: InlineCode[];
  /** Raw HTML start tags, by offset. */
  tags: HtmlTag[];
  /** The rendered plain text (only with `text: true`). */
  text?: string;
}

/** Options for `scanInline`. */
export interface ScanInlineOptions {
  /** Normalised labels of the document's reference definitions (for `[t][ref]` and `[ref]`). */
  labels?: ReadonlySet<string>;
  /** Also build the plain text: markup stripped, image alt text and HTML dropped. */
  text?: boolean;
}
