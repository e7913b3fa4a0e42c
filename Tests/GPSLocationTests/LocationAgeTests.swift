import Foundation
import Testing

@testable import GPSLocation

struct LocationAgeTests {
    private let now = Date(timeIntervalSince1970: 1_767_254_500)

    @Test func isTheTimeSinceTheFixAndUnknownWhenItCannotBeTrusted() {
        func age(_ offset: Double?) -> Double? {
            Location(unchecked: 0, longitude: 0, time: offset.map { now.addingTimeInterval(-$0) }, mode: .twoDimensional).age(at: now)?
                .seconds
        }
        #expect(age(30) == 30)
        #expect(age(-3) == 0, "a receiver slightly ahead counts as now")
        #expect(age(-365 * 86_400) == nil, "a year ahead: the age cannot be known")
        #expect(age(nil) == nil)
    }
}
