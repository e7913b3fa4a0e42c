import LocateSupport

/// One tag of a GPX document, as the scanner found it: its name, where it starts (its offset
/// in the input; the scanner tells its line), and whether it ends an element or closes itself.
/// Its attributes and the text before it are the scanner's until the next tag.
struct GPXTag {
    /// The element, `nil` for one GPX's reader and writer do not know.
    let name: GPX.Element?
    let offset: Int
    let isEnd: Bool
    let isSelfClosing: Bool
}

/// Walks the tags of a GPX document as its bytes come, skipping comments, processing
/// instructions and declarations, with no allocation per tag: names are compared in place with
/// constants made once, and a tag's attributes are read where they lie in the window.
///
/// The text before a tag is what XML says it is: the character data since the tag before,
/// joined across comments and processing instructions, with the content of CDATA sections.
/// White space around it is not kept, however much there is; of the rest, at most
/// ``maximumText`` bytes are (no value of a point is longer, and longer text is said to be so).
/// The window over the input holds at most a chunk and the tag being read (at most
/// ``maximumTag``), so memory never grows with the document. Lines end at LF, CR or CRLF, each
/// counted once, as ``TrackLines`` counts them.
///
/// Measured in a release build on this project's 2-core machine, over a 128 MB document of
/// small elements (`--once --replay` to a track point at its end): about 39 MB/s before this
/// scanner (which copied each tag's name, attributes and text, and read such a file twice), about
/// 310 MB/s with it.
struct GPXScanner {
    /// The longest text between tags that is kept, white space around it left out.
    static let maximumText = 256
    /// The longest tag read.
    static let maximumTag = 64 * 1024

    /// Where a tag starts: its offset in the input, and its line.
    struct Position {
        let offset: Int
        let line: Int
    }

    private static let commentStart: StaticString = "<!--"
    private static let commentEnd: StaticString = "-->"
    private static let cdataStart: StaticString = "<![CDATA["
    private static let cdataEnd: StaticString = "]]>"
    private static let instructionEnd: StaticString = "?>"
    private static let declarationEnd: StaticString = ">"

    private let input: TrackInput
    /// The window over the input: `buffer[0]` is the input's byte at `dropped`.
    private var buffer: [UInt8] = []
    private var dropped = 0
    private var index = 0
    private var isAtEnd = false
    /// Line ends before `countedTo` (a position in `buffer`), for line numbers in one pass, and
    /// whether the byte before it was a CR (a LF right after it ends the same line).
    private var lineEnds = 0
    private var countedTo = 0
    private var afterCarriageReturn = false
    /// The text before the tag: from its first byte that is not white space, `textEnd` its
    /// length without the white space after it.
    private var textBytes: [UInt8] = []
    private var textEnd = 0
    /// White space was left out after the text: text after it would not be this text.
    private var textLeftSpaceOut = false
    private var textIsTooLong = false
    /// The last tag's attributes, in `buffer`.
    private var attributes = 0..<0

    init(_ input: TrackInput) {
        self.input = input
        textBytes.reserveCapacity(Self.maximumText)
    }

    /// The 1-based line of `tag`, the last one read (lines are counted as the window moves,
    /// so an earlier tag's line is not known any more).
    mutating func line(of tag: GPXTag) -> Int {
        lineNumber(at: tag.offset - dropped)
    }

    /// Whether the input can be read again from a position (a file, bytes in memory).
    var canRewind: Bool { input.canRewind }

    /// XML's white space: space, tab, line feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The text before the last tag, white space around it left out; `nil` when it was longer
    /// than ``maximumText``.
    var text: ArraySlice<UInt8>? {
        textIsTooLong ? nil : textBytes[0..<textEnd]
    }

    /// Goes back to `position`, a tag's start, to read on from there.
    /// - Throws: `TrackProblem` when the input cannot be read again.
    mutating func rewind(to position: Position) throws(TrackProblem) {
        try input.rewind(to: position.offset)
        buffer.removeAll(keepingCapacity: true)
        dropped = position.offset
        index = 0
        isAtEnd = false
        lineEnds = position.line - 1
        countedTo = 0
        afterCarriageReturn = false
        resetText()
    }

    /// The next tag, or `nil` at the end of the document.
    mutating func nextTag() throws(TrackProblem) -> GPXTag? {
        resetText()
        while true {
            guard try seekTagStart() else { return nil }
            // Enough bytes to tell a comment or CDATA from a tag.
            while buffer.count - index < Self.cdataStart.utf8CodeUnitCount, try more() {}
            let next = index + 1 < buffer.count ? buffer[index + 1] : 0
            if next == UInt8(ascii: "!") {
                if hasPrefix(Self.commentStart) {
                    try skip(opening: Self.commentStart.utf8CodeUnitCount, closing: Self.commentEnd, isText: false)
                } else if hasPrefix(Self.cdataStart) {
                    try skip(opening: Self.cdataStart.utf8CodeUnitCount, closing: Self.cdataEnd, isText: true)
                } else {
                    try skip(opening: 2, closing: Self.declarationEnd, isText: false)
                }
                continue
            }
            if next == UInt8(ascii: "?") {
                try skip(opening: 2, closing: Self.instructionEnd, isText: false)
                continue
            }
            return try readTag()
        }
    }

    /// The value of the last tag's attribute `key` (quoted with `"` or `'`), or `nil`; valid
    /// until the next tag.
    func attribute(_ key: StaticString) -> ArraySlice<UInt8>? {
        let found: Range<Int>? = buffer.withSpan { bytes in
            var index = attributes.lowerBound
            let end = attributes.upperBound
            while index < end {
                while index < end, Self.isSpace(bytes[index]) { index += 1 }
                let nameStart = index
                while index < end, bytes[index] != UInt8(ascii: "="), !Self.isSpace(bytes[index]) { index += 1 }
                let nameEnd = index
                while index < end, Self.isSpace(bytes[index]) { index += 1 }
                guard index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
                index += 1
                while index < end, Self.isSpace(bytes[index]) { index += 1 }
                guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
                let quote = bytes[index]
                index += 1
                let valueStart = index
                while index < end, bytes[index] != quote { index += 1 }
                guard index < end else { return nil }
                if Self.equal(bytes, nameStart..<nameEnd, key) { return valueStart..<index }
                index += 1
            }
            return nil
        }
        return found.map { buffer[$0] }
    }

    // MARK: - Reading

    /// Moves `index` to the next `<`, reading on as needed; what it passes is text. `false` at
    /// the end of the input.
    private mutating func seekTagStart() throws(TrackProblem) -> Bool {
        while true {
            let start = index
            let found = buffer.withSpan { bytes in ByteSearch.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: start) }
            let end = found ?? buffer.count
            addText(start..<end)
            index = end
            if found != nil { return true }
            guard try more() else { return false }
        }
    }

    /// Reads the tag at `index` (its `<`) to its `>`, outside quoted attribute values.
    private mutating func readTag() throws(TrackProblem) -> GPXTag {
        // How far past the `<` the search for the `>` has gone, and the quote it is in.
        var searched = 1
        var quote: UInt8 = 0
        while true {
            let start = index + searched
            let (close, stop, inQuote): (Int?, Int, UInt8) = buffer.withSpan { bytes in
                var position = start
                var quote = quote
                while true {
                    if quote != 0 {
                        // In a quoted value: on to its closing quote (a `<` has no place there).
                        guard let found = ByteSearch.firstIndex(of: quote, UInt8(ascii: "<"), quote, in: bytes, from: position) else {
                            return (nil, bytes.count, quote)
                        }
                        if bytes[found] == UInt8(ascii: "<") { return (nil, found, quote) }
                        quote = 0
                        position = found + 1
                        continue
                    }
                    // Outside quotes: on to the `>`, or a quote.
                    guard
                        let found = ByteSearch.firstIndex(
                            of: UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), in: bytes, from: position)
                    else { return (nil, bytes.count, 0) }
                    if bytes[found] == UInt8(ascii: ">") { return (found, found, 0) }
                    quote = bytes[found]
                    position = found + 1
                }
            }
            if let close { return try finishTag(closingAt: close) }
            // `index` stays at the tag's `<` (reading on keeps it), so its line is known for a problem.
            if stop < buffer.count {
                throw TrackProblem(line: lineNumber(at: index), reason: "an attribute value is not closed in its tag")
            }
            searched = stop - index
            quote = inQuote
            guard searched <= Self.maximumTag else {
                throw TrackProblem(line: lineNumber(at: index), reason: "a tag is longer than 64 KiB")
            }
            guard try more() else { throw TrackProblem(line: lineNumber(at: index), reason: "a tag is not closed") }
        }
    }

    /// The tag from `index` (its `<`) to `close` (its `>`), whose attributes stay in the window.
    private mutating func finishTag(closingAt close: Int) throws(TrackProblem) -> GPXTag {
        var bodyStart = index + 1
        var bodyEnd = close
        let isEnd = bodyStart < bodyEnd && buffer[bodyStart] == UInt8(ascii: "/")
        if isEnd { bodyStart += 1 }
        let isSelfClosing = !isEnd && bodyStart < bodyEnd && buffer[bodyEnd - 1] == UInt8(ascii: "/")
        if isSelfClosing { bodyEnd -= 1 }
        let (localStart, nameEnd): (Int, Int) = buffer.withSpan { bytes in
            // The name, to the first white space; its local part after the last `:`.
            var nameEnd = bodyStart
            var localStart = bodyStart
            while nameEnd < bodyEnd {
                let byte = bytes[nameEnd]
                if Self.isSpace(byte) { break }
                if byte == UInt8(ascii: ":") { localStart = nameEnd + 1 }
                nameEnd += 1
            }
            return (localStart, nameEnd)
        }
        guard nameEnd > bodyStart else { throw TrackProblem(line: lineNumber(at: index), reason: "a tag has no name") }
        let name = buffer.withSpan { bytes in Self.name(bytes, localStart..<nameEnd) }
        attributes = nameEnd..<bodyEnd
        let offset = dropped + index
        index = close + 1
        return GPXTag(name: name, offset: offset, isEnd: isEnd, isSelfClosing: isSelfClosing)
    }

    /// Moves past the construct at `index` (`opening` bytes long) and the next `closing`,
    /// reading on as needed; what is inside is text when `isText` (CDATA), otherwise nothing.
    private mutating func skip(opening: Int, closing: StaticString, isText: Bool) throws(TrackProblem) {
        let line = lineNumber(at: index)
        index += opening
        while true {
            let start = index
            let length = closing.utf8CodeUnitCount
            let found: Int? = buffer.withSpan { bytes in
                let pattern = closing.utf8Start
                guard bytes.count >= length else { return nil }
                var position = start
                let last = bytes.count - length
                while position <= last, let candidate = ByteSearch.firstIndex(of: pattern[0], in: bytes, from: position) {
                    guard candidate <= last else { return nil }
                    var matched = 1
                    while matched < length, bytes[candidate + matched] == pattern[matched] { matched += 1 }
                    if matched == length { return candidate }
                    position = candidate + 1
                }
                return nil
            }
            if let found {
                if isText { addText(start..<found) }
                index = found + length
                return
            }
            // What cannot be the start of `closing` is passed.
            let passed = max(start, buffer.count - (length - 1))
            if isText { addText(start..<passed) }
            index = passed
            guard try more() else {
                throw TrackProblem(line: line, reason: "'\(closing)' is missing")
            }
        }
    }

    /// Reads more of the input, first dropping what is behind `index` once it is a chunk's
    /// worth (the positions kept move with it). `false` at the end.
    private mutating func more() throws(TrackProblem) -> Bool {
        guard !isAtEnd else { return false }
        if index >= ChunkedInput.chunkSize {
            _ = lineNumber(at: index)
            buffer.removeFirst(index)
            dropped += index
            countedTo -= index
            index = 0
        }
        if try input.read(appendingTo: &buffer) == 0 {
            isAtEnd = true
            return false
        }
        return true
    }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard buffer.count - index >= count else { return false }
        return buffer.withSpan { bytes in Self.equal(bytes, index..<(index + count), prefix) }
    }

    /// The 1-based line of `position` (never before the last position asked for).
    private mutating func lineNumber(at position: Int) -> Int {
        guard countedTo < position else { return lineEnds + 1 }
        let from = countedTo
        let before = afterCarriageReturn
        let (ends, last) = buffer.withSpan { bytes in
            // A CR right before a LF (CRLF) makes one line end with it; CRs are rare enough to
            // look for such pairs only when there are some.
            let (feeds, returns) = ByteSearch.lineEndBytes(in: bytes, from..<position)
            var pairs = before && bytes[from] == 0x0A ? 1 : 0
            if returns > 0 {
                for offset in from..<(position - 1) where bytes[offset] == 0x0D && bytes[offset + 1] == 0x0A { pairs += 1 }
            }
            return (feeds + returns - pairs, bytes[position - 1])
        }
        lineEnds += ends
        afterCarriageReturn = last == 0x0D
        countedTo = position
        return lineEnds + 1
    }

    // MARK: - Text

    private mutating func resetText() {
        if !textBytes.isEmpty { textBytes.removeAll(keepingCapacity: true) }
        textEnd = 0
        textLeftSpaceOut = false
        textIsTooLong = false
    }

    /// Adds the bytes of `range` to the text: white space before the text and after it is not
    /// kept, the rest is, up to ``maximumText``.
    private mutating func addText(_ range: Range<Int>) {
        guard !textIsTooLong, !range.isEmpty else { return }
        buffer.withSpan { bytes in
            var start = range.lowerBound
            if textBytes.isEmpty {
                while start < range.upperBound, Self.isSpace(bytes[start]) { start += 1 }
                guard start < range.upperBound else { return }
            }
            var last = range.upperBound - 1
            while last >= start, Self.isSpace(bytes[last]) { last -= 1 }
            let hasContent = last >= start
            // Text after white space that was left out: longer than kept.
            if hasContent, textLeftSpaceOut {
                textIsTooLong = true
                return
            }
            let room = Self.maximumText - textBytes.count
            let kept = hasContent ? last + 1 - start : 0
            guard kept <= room else {
                textIsTooLong = true
                return
            }
            let end = range.upperBound - start <= room ? range.upperBound : start + kept
            if end < range.upperBound { textLeftSpaceOut = true }
            textBytes.append(contentsOf: buffer[start..<end])
            if hasContent { textEnd = textBytes.count - (end - (last + 1)) }
        }
    }

    // MARK: - Names

    private static func equal(_ bytes: Span<UInt8>, _ range: Range<Int>, _ constant: StaticString) -> Bool {
        guard range.count == constant.utf8CodeUnitCount else { return false }
        let constant = constant.utf8Start
        var offset = 0
        while offset < range.count {
            if bytes[range.lowerBound + offset] != constant[offset] { return false }
            offset += 1
        }
        return true
    }

    /// The elements by the length of their names, made once.
    private static let elementsByLength: [[GPX.Element]] = {
        var table = [[GPX.Element]](repeating: [], count: GPX.Element.allCases.reduce(0) { max($0, $1.name.utf8CodeUnitCount) } + 1)
        for element in GPX.Element.allCases { table[element.name.utf8CodeUnitCount].append(element) }
        return table
    }()

    /// The element that `range` names, compared with those of its length only.
    private static func name(_ bytes: Span<UInt8>, _ range: Range<Int>) -> GPX.Element? {
        guard range.count < elementsByLength.count else { return nil }
        for element in elementsByLength[range.count] where equal(bytes, range, element.name) { return element }
        return nil
    }
}
