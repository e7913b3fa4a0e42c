package import GPSLocation

/// What a fleet's source gives: a device's position, or a record that is not one.
package enum DeviceRecord: Sendable, Hashable {
    /// A device's position.
    case location(DeviceLocation)
    /// A record that is not one, with its 1-based number in the source (its line, or its
    /// message) and why.
    case skipped(line: Int, reason: String)
    /// What the source handed out so far is acknowledged when the next record is asked for (a
    /// subscription's batch): what it changed must be kept now (written out, states committed).
    case checkpoint
}

/// Where a fleet's records come from, one at a time, in the order they arrive: a pipe or a file
/// of `mosquitto_sub -v` lines and JSON records (``DeviceRecordReader``), or a subscription to a
/// broker, whose messages go through ``DeviceLocation/parse(topic:payload:by:)``. A
/// ``FleetDetector`` takes the positions, whatever the source.
package protocol DeviceRecordSource {
    /// What messages call the source (`standard input`, a file, a broker's address).
    var name: String { get }
    /// The next record, or `nil` when the source has ended; may block until one comes.
    /// - Throws: ``GPSLocationError`` when the source cannot go on.
    mutating func next() throws(GPSLocationError) -> DeviceRecord?
}
