/// Little-endian numbers in the bytes of the places' files (the place index, gettext
/// catalogues): the one word reader of this library.
enum ByteWords {
    /// The 32-bit word at `offset`, which must leave 4 bytes; little-endian unless `bigEndian`.
    static func word(_ bytes: [UInt8], at offset: Int, bigEndian: Bool = false) -> Int {
        let (b0, b1, b2, b3) = (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]), Int(bytes[offset + 3]))
        return bigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
    }

    /// The little-endian 16-bit word at `offset`, which must leave 2 bytes.
    static func short(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset + 1]) << 8 | Int(bytes[offset])
    }
}
