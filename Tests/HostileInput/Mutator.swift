/// Seeded, deterministic mutations of valid inputs, for the hostile-input tests: the same seed
/// gives the same inputs on every machine and every run.
public struct Mutator: RandomNumberGenerator {
    private var state: UInt64

    /// A mutator whose choices follow from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next pseudo-random number (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func number(in range: Range<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// One of `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[number(in: 0..<choices.count)]
    }

    /// Bytes that break text in the ways files and sockets do.
    public static let hostileFragments: [[UInt8]] = [
        [0x00], [0x1B, 0x5B, 0x32, 0x4A], [0x7F], [0xC2, 0x9B], [0xE2, 0x80, 0xAE], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE],
        [0xC3], [0xED, 0xA0, 0x80], [0x0D], [0x0A], [0x09], [0x22], [0x5C], [0x5B], [0x5D], [0x3D], [0x23], [0x3B], [0x7B], [0x7D],
        Array("1e308".utf8), Array("-1e308".utf8), Array("nan".utf8), Array("inf".utf8), Array("99999999999999999999999999999".utf8),
        Array("-0".utf8), Array(String(repeating: "9", count: 400).utf8), Array("[app \"x\"]".utf8), Array("authorization = always".utf8),
    ]

    /// `input` changed in one to four ways: bits flipped, a cut, a hostile fragment inserted or
    /// put in place of a byte, a line doubled or dropped, a byte-order mark in front.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<number(in: 1..<5) {
            let position = bytes.isEmpty ? 0 : number(in: 0..<bytes.count)
            switch number(in: 0..<8) {
            case 0 where !bytes.isEmpty:
                bytes[position] ^= UInt8(1 << number(in: 0..<8))
            case 1:
                bytes = Array(bytes.prefix(position))
            case 2:
                bytes.insert(contentsOf: pick(Self.hostileFragments), at: position)
            case 3 where !bytes.isEmpty:
                bytes.replaceSubrange(position...position, with: pick(Self.hostileFragments))
            case 4:
                let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                if let line = lines.isEmpty ? nil : pick(lines) { bytes += [UInt8(ascii: "\n")] + line }
            case 5:
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
                if !lines.isEmpty { lines.remove(at: number(in: 0..<lines.count)) }
                bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            case 6:
                bytes = [0xEF, 0xBB, 0xBF] + bytes
            default:
                bytes.insert(UInt8(truncatingIfNeeded: next()), at: position)
            }
        }
        return bytes
    }

    /// `count` mutants of each of `seeds`, the seeds themselves first.
    public mutating func corpus(from seeds: [String], count: Int) -> [[UInt8]] {
        let originals = seeds.map { Array($0.utf8) }
        return originals + (0..<count).map { _ in mutate(pick(originals)) }
    }
}
