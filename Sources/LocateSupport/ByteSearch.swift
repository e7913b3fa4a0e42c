/// Searches and counts over bytes eight at a time (SWAR: one 64-bit word holds eight bytes,
/// and a few word operations tell which of them are a given byte), for the scanners of tracks:
/// a plain loop asks each byte in turn, and the compiler does not vectorize a search that
/// stops at its first match.
package enum ByteSearch {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// `byte` in each of the eight bytes of a word.
    @inlinable @inline(__always)
    static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* ones }

    /// The high bit of each byte of `word` that is zero, and no other bit (exact: no carry
    /// crosses from one byte into the next).
    @inlinable @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & low7) &+ low7) | word | low7)
    }

    /// The eight bytes at `offset`, the first in the lowest bits.
    @inlinable @inline(__always)
    static func word(_ bytes: Span<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The position of the first byte in `bytes[from...]` that is `a`, `b` or `c` (give the
    /// same byte twice for fewer), or `nil`.
    @inlinable
    package static func firstIndex(of a: UInt8, _ b: UInt8, _ c: UInt8, in bytes: Span<UInt8>, from: Int) -> Int? {
        var position = from
        let end = bytes.count
        let (wordA, wordB, wordC) = (repeated(a), repeated(b), repeated(c))
        while position + 8 <= end {
            let word = word(bytes, position)
            let found = zeroBytes(word ^ wordA) | zeroBytes(word ^ wordB) | zeroBytes(word ^ wordC)
            if found != 0 { return position + found.trailingZeroBitCount / 8 }
            position += 8
        }
        while position < end {
            let byte = bytes[position]
            if byte == a || byte == b || byte == c { return position }
            position += 1
        }
        return nil
    }

    /// ``firstIndex(of:_:_:in:from:)`` of one byte.
    @inlinable
    package static func firstIndex(of byte: UInt8, in bytes: Span<UInt8>, from: Int) -> Int? {
        var position = from
        let end = bytes.count
        let pattern = repeated(byte)
        while position + 8 <= end {
            let found = zeroBytes(word(bytes, position) ^ pattern)
            if found != 0 { return position + found.trailingZeroBitCount / 8 }
            position += 8
        }
        while position < end {
            if bytes[position] == byte { return position }
            position += 1
        }
        return nil
    }

    /// How many of `bytes[range]` are LF, and how many CR.
    @inlinable
    package static func lineEndBytes(in bytes: Span<UInt8>, _ range: Range<Int>) -> (feeds: Int, returns: Int) {
        var position = range.lowerBound
        let end = range.upperBound
        var feeds = 0
        var returns = 0
        let (lineFeed, carriageReturn) = (repeated(0x0A), repeated(0x0D))
        while position + 8 <= end {
            let word = word(bytes, position)
            feeds &+= zeroBytes(word ^ lineFeed).nonzeroBitCount
            returns &+= zeroBytes(word ^ carriageReturn).nonzeroBitCount
            position += 8
        }
        while position < end {
            let byte = bytes[position]
            if byte == 0x0A { feeds += 1 } else if byte == 0x0D { returns += 1 }
            position += 1
        }
        return (feeds, returns)
    }
}

extension Array where Element == UInt8 {
    /// `body` of the array's bytes as a span, for the searches of ``ByteSearch``.
    @inlinable @inline(__always)
    package func withSpan<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try body(span)
    }
}
