import GPSLocation
import LocateFormats

/// NMEA 0183 sentences of a grid cell, for the clients of `locate serve` whose app has reduced
/// accuracy and that read NMEA (`gpspipe -r`, GeoClue's NMEA source): GGA, RMC and GSA
/// (LocateFormats' writer), saying the cell's centre and time and nothing finer (no altitude,
/// speed, course, dilution or number of satellites). A client with full accuracy gets the
/// receiver's own sentences instead, as gpsd relays them.
enum NMEASentences {
    /// The three sentences of a cell; none for a location without a fix mode or time.
    static func sentences(ofCell cell: Location) -> [UInt8] {
        guard let mode = cell.mode else { return [] }
        var fix = NMEA.Fix(latitude: cell.latitude, longitude: cell.longitude)
        fix.time = cell.time
        fix.mode = mode == .threeDimensional ? .threeDimensional : .twoDimensional
        return NMEA.sentences(fix)
    }
}
