// Type declarations for html-encoding-sniffer@4, which ships none.
declare module 'html-encoding-sniffer' {
  interface SniffOptions {
    /** Charset label from the Content-Type header; wins over <meta>. */
    transportLayerEncodingLabel?: string;
    /** Returned when neither a BOM, the label nor a <meta> names an encoding. */
    defaultEncoding?: string;
  }
  /** WHATWG encoding sniffing; returns an encoding name such as "UTF-8" or "windows-1252". */
  function htmlEncodingSniffer(bytes: Uint8Array, options?: SniffOptions): string;
  export = htmlEncodingSniffer;
}
