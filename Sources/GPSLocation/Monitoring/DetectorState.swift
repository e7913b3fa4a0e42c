import FoundationEssentials
import LocateSupport

/// A detector whose state for one device can be kept as bytes and taken up again (a fleet
/// monitor's states survive a restart): `encodedState` now, and ``restore(encodedState:)`` in a
/// detector made with the same definition (``definition`` says which: another definition's state
/// is not taken). Package-level: the fleet's keeper is this package's.
package protocol DetectorStateCoding {
    /// The detector's state, as bytes.
    var encodedState: [UInt8] { get }
    /// Takes up a state `encodedState` gave; `false`, changing nothing, for bytes that are not one.
    mutating func restore(encodedState: [UInt8]) -> Bool
    /// What the detector watches for (its regions, its radius and dwell), as text: a kept state
    /// is taken up only by a detector of the same definition.
    var definition: String { get }
}

/// Doubles written and read as their bits, little-endian.
package struct StateBytes {
    package private(set) var bytes: [UInt8] = []
    private var offset = 0

    package init() {}

    package init(reading bytes: [UInt8]) {
        self.bytes = bytes
    }

    package mutating func append(_ value: Double) {
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    package mutating func next() -> Double? {
        guard offset + 8 <= bytes.count else { return nil }
        var bits: UInt64 = 0
        for index in (offset..<offset + 8).reversed() { bits = bits << 8 | UInt64(bytes[index]) }
        offset += 8
        return Double(bitPattern: bits)
    }

    /// Whether every byte was read.
    package var isAtEnd: Bool { offset == bytes.count }
}

extension VisitDetector: DetectorStateCoding {
    package var definition: String { "visits radius=\(radius) dwell=\(dwell.seconds)" }

    package var encodedState: [UInt8] {
        guard let stay else { return [] }
        let values: [Double] = [
            stay.first.latitude, stay.first.longitude, stay.first.time?.timeIntervalSince1970 ?? .nan,
            stay.first.horizontalAccuracy ?? .nan, stay.latitudeSum, stay.longitudeOffsetSum, Double(stay.count), stay.accuracySum,
            Double(stay.accuracyCount), stay.last.timeIntervalSince1970, stay.hasArrived ? 1 : 0,
        ]
        var bytes = StateBytes()
        for value in values { bytes.append(value) }
        return bytes.bytes
    }

    package mutating func restore(encodedState: [UInt8]) -> Bool {
        guard !encodedState.isEmpty else {
            stay = nil
            return true
        }
        var reader = StateBytes(reading: encodedState)
        var values: [Double] = []
        while let value = reader.next() { values.append(value) }
        guard reader.isAtEnd, values.count == 11, values[0].isFinite, values[1].isFinite, values[9].isFinite,
            let count = Int(exactly: values[6]), count > 0, let accuracyCount = Int(exactly: values[8])
        else { return false }
        let first = Location(
            unchecked: values[0], longitude: values[1], time: values[2].isNaN ? nil : Date(timeIntervalSince1970: values[2]),
            horizontalAccuracy: values[3].isNaN ? nil : values[3], mode: nil)
        var restored = Stay(first, at: Date(timeIntervalSince1970: values[9]))
        restored.latitudeSum = values[4]
        restored.longitudeOffsetSum = values[5]
        restored.count = count
        restored.accuracySum = values[7]
        restored.accuracyCount = accuracyCount
        restored.hasArrived = values[10] != 0
        stay = restored
        return true
    }
}
