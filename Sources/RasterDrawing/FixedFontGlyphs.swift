/// X's "fixed" font (misc-fixed 6x13, ISO 8859-1) as bitmaps, for windows drawn on the client
/// side — Wayland has no server font (docs/DRAG-AND-DROP.md). The glyphs are generated from the
/// font file by Scripts/generate-bitmap-font (FixedFontRows.swift), so a Wayland window lays out
/// exactly as the X11 window that draws with the server's `fixed`.
///
/// ```swift
/// let rows = FixedFont.glyph(UInt8(ascii: "A"))   // 13 rows, the leftmost pixel the top bit
/// ```
public enum FixedFont {
  /// The index of `byte`'s glyph: Latin-1's printable characters have their own, every other
  /// byte is drawn as `?`.
  public static func glyphIndex(of byte: UInt8) -> Int {
    switch byte {
    case 0x20...0x7E: Int(byte) - 0x20
    case 0xA0...0xFF: 95 + Int(byte) - 0xA0
    default: Int(UInt8(ascii: "?")) - 0x20
    }
  }

  /// The rows of `byte`'s glyph, top to bottom: ``cellHeight`` bytes, bit 7 the leftmost of
  /// its ``cellWidth`` pixels.
  public static func glyph(_ byte: UInt8) -> ArraySlice<UInt8> {
    let start = glyphIndex(of: byte) * cellHeight
    return rows[start..<start + cellHeight]
  }
}
