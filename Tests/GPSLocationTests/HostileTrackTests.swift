import Foundation
import GPSLocation
import HostileInput
import LocateSupport
import Testing

/// Seeded mutations of valid GPX, NMEA and JSON Lines tracks: each is read whole into fixes
/// that are all real positions, or refused with one line naming the file and saying why;
/// never a crash, a hang or a value out of range.
struct HostileTrackTests {
    static let seeds = [
        """
        <?xml version="1.0"?><gpx version="1.1"><trk><trkseg>
        <trkpt lat="64.14" lon="-21.91"><ele>30</ele><time>2026-01-01T08:00:00Z</time><hdop>0.9</hdop></trkpt>
        <trkpt lat="64.1401" lon="-21.9101"><time>2026-01-01T08:00:01Z</time></trkpt>
        <trkpt lat="64.1402" lon="-21.9102"><ele>31</ele><magvar>346.8</magvar><geoidheight>45.0</geoidheight><desc>a &amp; b</desc><fix>dgps</fix><sat>8</sat><vdop>1.25</vdop><pdop>1.50</pdop></trkpt>
        </trkseg></trk></gpx>
        """,
        """
        $GPRMC,080000.00,A,6408.40000,N,02154.60686,W,6.41,0.0,010126,,,A*71
        $GPGGA,080000.00,6408.40000,N,02154.60686,W,1,08,0.9,30.0,M,45.0,M,,*47
        $GPGSA,A,3,02,05,12,15,18,24,25,29,,,,,1.6,0.9,1.3*3D
        $GPRMC,080001.00,A,6408.40178,N,02154.60687,W,6.41,359.6,010126,,,A*76
        $GPGGA,080001.00,6408.40178,N,02154.60687,W,1,08,0.9,30.1,M,45.0,M,,*48
        """,
        """
        {"type":"fix","time":"2026-01-01T08:00:05.000Z","lat":64.14,"lon":-21.91,"h_acc":3.1,"mode":"3d","sats_used":8,"device":"/dev/ttyACM0"}
        {"type":"status","event":"no_fix","message":"no fix yet"}
        {"lat":64.15,"lon":-21.92,"speed":1.5,"course":90}
        """,
    ]

    @Test func mutatedTracksAreReadIntoRealPositionsOrRefusedInOneLine() {
        var mutator = Mutator(seed: 15)
        var read = 0
        for bytes in mutator.corpus(from: Self.seeds, count: 3000) {
            do {
                let locations = try ReplayTrack(parsing: bytes, name: "track").allLocations()
                read += 1
                for location in locations {
                    #expect((-90...90).contains(location.latitude) && (-180...180).contains(location.longitude), "\(location)")
                    #expect(location.source == .replay)
                    let details = location.details
                    for value in [
                        location.horizontalAccuracy, location.speed, location.hdop, location.altitudeMSL, details.vdop, details.pdop,
                        details.magneticVariation, details.geoidSeparation,
                    ] {
                        #expect(value.map { $0.isFinite } ?? true, "\(location)")
                    }
                    #expect(location.horizontalAccuracy.map { $0 >= 0 } ?? true && location.course.map { (0...360).contains($0) } ?? true)
                    #expect(location.time.map { $0.timeIntervalSince1970.isFinite } ?? true)
                    #expect(details.magneticVariation.map { (-180...180).contains($0) } ?? true, "\(location)")
                    #expect(location.satellitesUsed.map { (0...255).contains($0) } ?? true, "\(location)")
                    #expect(!UntrustedText.hasHidden(location.device ?? ""))
                }
            } catch {
                let message = error.description
                #expect(message.hasPrefix("track"), "\(message)")
                #expect(!message.contains("\n") && !UntrustedText.hasHidden(message) && message.count < 600, "\(message)")
            }
        }
        #expect(read > 1000, "most mutants still hold fixes: \(read)")
    }
}
