import Testing

@testable import LocateFormats

/// Traccar's OsmAnd form: Traccar's own fields and units, the device's fields first, an unknown
/// value left out.
struct OsmAndTests {
    @Test func theFormIsTraccarsOwn() {
        let form = OsmAnd.form(
            device: "id=van-1", latitude: 64.13, longitude: -21.9, time: 1_767_254_400, speed: 10, bearing: 359.6, altitude: 30,
            accuracy: 0.9)
        #expect(form == "id=van-1&lat=64.1300000&lon=-21.9000000&timestamp=1767254400&speed=19.44&bearing=359.6&altitude=30.0&accuracy=0.9")
        let bare = OsmAnd.form(
            device: "deviceid=7", latitude: -33.5, longitude: 151, time: 0, speed: nil, bearing: nil, altitude: nil, accuracy: nil)
        #expect(bare == "deviceid=7&lat=-33.5000000&lon=151.0000000&timestamp=0")
    }

    @Test(arguments: [("id=van", true), ("x=1&deviceid=7", true), ("id=", false), ("idx=3", false), ("", false), ("ID=van", false)])
    func theQueryNamesTheDevice(query: String, names: Bool) {
        #expect(OsmAnd.namesDevice(query) == names)
    }
}
