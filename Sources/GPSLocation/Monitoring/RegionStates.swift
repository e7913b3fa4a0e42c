import FoundationEssentials

/// What a ``RegionMonitor`` keeps for each of its regions, for one device: the state, whether
/// its `initial` event is out, and when the state was decided. A monitor keeps its own in arrays
/// of full values; a fleet keeps each device's compact (``CompactRegionStates``).
protocol RegionStateStorage {
    func state(_ index: Int) -> RegionState
    func isReported(_ index: Int) -> Bool
    func date(_ index: Int) -> Date?
    /// Sets the region's state, decided at `date`.
    mutating func set(_ index: Int, state: RegionState, date: Date?)
    mutating func markReported(_ index: Int)
}

/// One monitor's own states: a value a region, times to the nanosecond, grown and shrunk as
/// regions are added and removed.
struct RegionStateArrays: RegionStateStorage {
    private var states: [RegionState] = []
    private var dates: [Date?] = []
    private var reported: [Bool] = []

    func state(_ index: Int) -> RegionState { states[index] }
    func isReported(_ index: Int) -> Bool { reported[index] }
    func date(_ index: Int) -> Date? { dates[index] }

    mutating func set(_ index: Int, state: RegionState, date: Date?) {
        states[index] = state
        dates[index] = date
    }

    mutating func markReported(_ index: Int) { reported[index] = true }

    /// A region more, `unknown` and not reported.
    mutating func append() {
        states.append(.unknown)
        dates.append(nil)
        reported.append(false)
    }

    mutating func remove(at index: Int) {
        states.remove(at: index)
        dates.remove(at: index)
        reported.remove(at: index)
    }
}

/// One device's states in a fleet: four bits a region (the state, and whether its `initial`
/// event is out) and the decision's receiver time in whole seconds since 1970 (0 for none),
/// some 4.5 bytes a region, so a fleet of many devices stays small.
package struct CompactRegionStates: RegionStateStorage {
    private var nibbles: [UInt8]
    private var seconds: [UInt32]

    /// The states of `count` regions, all `unknown` and not reported.
    package init(count: Int) {
        nibbles = [UInt8](repeating: 0, count: (count + 1) / 2)
        seconds = [UInt32](repeating: 0, count: count)
    }

    private func nibble(_ index: Int) -> UInt8 { (nibbles[index / 2] >> UInt8((index % 2) * 4)) & 0x0F }

    private mutating func setNibble(_ index: Int, _ value: UInt8) {
        let shift = UInt8((index % 2) * 4)
        nibbles[index / 2] = (nibbles[index / 2] & ~(0x0F << shift)) | (value << shift)
    }

    func state(_ index: Int) -> RegionState {
        switch nibble(index) & 0x03 {
        case 1: .inside
        case 2: .outside
        default: .unknown
        }
    }

    func isReported(_ index: Int) -> Bool { nibble(index) & 0x04 != 0 }

    func date(_ index: Int) -> Date? {
        seconds[index] == 0 ? nil : Date(timeIntervalSince1970: Double(seconds[index]))
    }

    mutating func set(_ index: Int, state: RegionState, date: Date?) {
        let code: UInt8 =
            switch state {
            case .inside: 1
            case .outside: 2
            case .unknown: 0
            }
        setNibble(index, (nibble(index) & 0x04) | code)
        seconds[index] = date.map { UInt32(clamping: Int64($0.timeIntervalSince1970.rounded(.down))) } ?? 0
    }

    mutating func markReported(_ index: Int) { setNibble(index, nibble(index) | 0x04) }

    /// The states as bytes: the nibbles, then each time as four bytes, little-endian.
    package var encoded: [UInt8] {
        nibbles + seconds.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32($0 * 8)) } }
    }

    /// The states `encoded` gave for `count` regions; `nil` for bytes that are not those of `count` regions.
    package init?(encoded bytes: [UInt8], count: Int) {
        let nibbleCount = (count + 1) / 2
        guard count >= 0, bytes.count == nibbleCount + 4 * count else { return nil }
        nibbles = Array(bytes[..<nibbleCount])
        seconds = (0..<count).map { region in
            (0..<4).reduce(UInt32(0)) { value, byte in value | UInt32(bytes[nibbleCount + region * 4 + byte]) << UInt32(byte * 8) }
        }
    }
}
