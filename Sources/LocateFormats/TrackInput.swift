package import LocateSupport

/// A track's bytes as they are read, a chunk at a time: from a file, from a pipe that may stay
/// open (waiting in `poll`, so a stop cuts the wait short), or from memory. Nothing holds the
/// whole track: what a reader keeps is bounded by a chunk and the longest line or tag it takes.
///
/// At most ``maximumSize`` bytes are read; a longer input is a problem of its own. A file or
/// bytes in memory can be read again from an offset (`rewind(to:)`); a pipe cannot.
package final class TrackInput {
    /// The largest input read, 256 MiB (some three million fixes of JSON Lines).
    package static let maximumSize = 256 << 20

    /// Where the bytes come from.
    private enum Origin {
        /// A file or a pipe.
        case descriptor(ChunkedInput)
        /// Bytes in memory, handed out a chunk at a time.
        case memory([UInt8], offset: Int)
    }

    private var origin: Origin
    private var total = 0
    /// Bytes read ahead to tell the format, handed out first.
    private var lookahead: [UInt8] = []
    /// Whether the first significant line is a topic, a space and a JSON payload (known after
    /// `firstSignificantByte()`).
    package private(set) var startsWithMessage = false

    /// Asked before each chunk: `true` ends the input there, as if it ended (the playback
    /// stopped, or its deadline passed), so even a file is not read on for nobody.
    package var shouldStop: () -> Bool = { false }
    /// Told before each chunk is read, with `true` when the read is about to wait for a pipe's
    /// next bytes: what was read before can be handed on first.
    package var willRead: (_ mayWait: Bool) -> Void = { _ in }

    /// An input reading `descriptor`; a pipe or a socket is waited for in `poll` with `wakeUp`
    /// and `shouldStop` checked at each turn.
    package init(descriptor: Int32, owned: Bool, wakeUp: WakeUp?, shouldStop: @escaping () -> Bool) {
        origin = .descriptor(ChunkedInput(descriptor: descriptor, owned: owned, wakeUp: wakeUp, shouldStop: shouldStop))
        self.shouldStop = shouldStop
    }

    /// An input over a file opened for it.
    package init(_ input: ChunkedInput) {
        origin = .descriptor(input)
    }

    /// An input over bytes in memory.
    package init(bytes: [UInt8]) {
        origin = .memory(bytes, offset: 0)
    }

    /// Whether the input can be read again from an offset: a file or bytes in memory.
    package var canRewind: Bool {
        switch origin {
        case .memory: true
        case .descriptor(let input): input.canSeek
        }
    }

    /// Makes the next read start `offset` bytes from the start of the input.
    /// - Throws: `TrackProblem` when it cannot be read again (a pipe), or the file cannot seek.
    package func rewind(to offset: Int) throws(TrackProblem) {
        switch origin {
        case .memory(let bytes, _):
            origin = .memory(bytes, offset: min(max(0, offset), bytes.count))
        case .descriptor(let input):
            do throws(SystemError) {
                try input.seek(to: offset)
            } catch {
                throw TrackProblem(line: nil, reason: "cannot be read again: " + error.reason)
            }
        }
        lookahead = []
        total = offset
    }

    /// Appends the next chunk to `buffer`.
    /// - Returns: how many bytes were added; 0 at the end (or when the reader was stopped).
    /// - Throws: `TrackProblem` when the input cannot be read or is longer than the cap.
    package func read(appendingTo buffer: inout [UInt8]) throws(TrackProblem) -> Int {
        if shouldStop() { return 0 }
        if !lookahead.isEmpty {
            defer { lookahead = [] }
            buffer += lookahead
            return lookahead.count
        }
        willRead(false)
        return try readChunk(appendingTo: &buffer) { [willRead] in willRead(true) }
    }

    private func readChunk(appendingTo buffer: inout [UInt8], beforeWaiting: () -> Void = {}) throws(TrackProblem) -> Int {
        let count: Int
        switch origin {
        case .memory(let bytes, let offset):
            count = min(ChunkedInput.chunkSize, bytes.count - offset)
            buffer += bytes[offset..<(offset + count)]
            origin = .memory(bytes, offset: offset + count)
        case .descriptor(let input):
            do throws(SystemError) {
                count = try input.read(appendingTo: &buffer, beforeWaiting: beforeWaiting)
            } catch {
                throw TrackProblem(line: nil, reason: "cannot be read: " + error.reason)
            }
        }
        total += count
        guard total <= Self.maximumSize else {
            throw TrackProblem(line: nil, reason: "is too large (over \(Self.maximumSize >> 20) MiB)")
        }
        return count
    }

    /// The first byte that says the format: after white space, a byte-order mark, and the `#`
    /// comment lines gpsd's receiver logs begin with (within the first MiB); `nil` when the input
    /// ends, or the first MiB says nothing. Called before anything is read; what it reads is
    /// handed out again by `read`.
    package func firstSignificantByte() throws(TrackProblem) -> UInt8? {
        var bytes: [UInt8] = []
        defer { lookahead = bytes }
        var index = 0
        var inComment = false
        while index < 1 << 20 {
            if index == bytes.count, try readChunk(appendingTo: &bytes) == 0 { return nil }
            let byte = bytes[index]
            index += 1
            if inComment {
                if byte == 0x0A { inComment = false }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: continue
            case UInt8(ascii: "#"): inComment = true
            default:
                // A `mosquitto_sub -v` line: a topic, a space, a JSON payload (seen in what was read).
                let line = bytes[(index - 1)...].prefix { $0 != 0x0A && $0 != 0x0D }
                startsWithMessage = line.firstIndex(of: 0x20).map { line[($0 + 1)...].first == UInt8(ascii: "{") } ?? false
                return byte
            }
        }
        return nil
    }
}

/// The lines of a track input (ended by `\n`, `\r\n` or `\r`), one at a time, with their 1-based
/// numbers; a byte-order mark before the first line is the file's, not the line's. A line longer
/// than `maximumLength` is a problem on its line, so a line never makes memory grow unbounded.
package struct TrackLines {
    /// The longest line taken.
    static let maximumLength = 1 << 20

    private let input: TrackInput
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// Where the search for its end goes on (the bytes before were looked at).
    private var scanned = 0
    private var number = 0
    private var isAtEnd = false
    /// A `\r` ended the last line: a `\n` right after it belongs to that line end.
    private var pendingCarriageReturn = false

    package init(_ input: TrackInput) {
        self.input = input
    }

    /// The next line's number and bytes, or `nil` at the end of the input.
    package mutating func next() throws(TrackProblem) -> (number: Int, bytes: ArraySlice<UInt8>)? {
        while true {
            if pendingCarriageReturn, start < buffer.count {
                pendingCarriageReturn = false
                if buffer[start] == 0x0A {
                    start += 1
                    scanned = max(scanned, start)
                }
            }
            var index = max(scanned, start)
            while index < buffer.count, buffer[index] != 0x0A, buffer[index] != 0x0D { index += 1 }
            if index < buffer.count {
                number += 1
                var line = buffer[start..<index]
                if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
                pendingCarriageReturn = buffer[index] == 0x0D
                start = index + 1
                scanned = start
                return (number, line)
            }
            scanned = index
            guard buffer.count - start <= Self.maximumLength else {
                throw TrackProblem(line: number + 1, reason: "is longer than \(Self.maximumLength >> 20) MiB")
            }
            if isAtEnd {
                guard start < buffer.count else { return nil }
                number += 1
                var line = buffer[start...]
                if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
                start = buffer.count
                return (number, line)
            }
            // Keep only the line being read before reading on.
            if start > 0 {
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            if try input.read(appendingTo: &buffer) == 0 { isAtEnd = true }
        }
    }
}

/// What is wrong with a track, and on which line (1-based), before the file's name is added.
package struct TrackProblem: Error {
    package let line: Int?
    package let reason: String

    package init(line: Int?, reason: String) {
        (self.line, self.reason) = (line, reason)
    }
}
