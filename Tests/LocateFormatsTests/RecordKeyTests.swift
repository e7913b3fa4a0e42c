import LocateSupport
import Testing

@testable import LocateFormats

/// The one table of the locate record's keys, and Home Assistant's attributes.
struct RecordKeyTests {
    @Test func eachKeyIsSpelledOnceAndTheFixRecordKeepsItsOrder() {
        #expect(Set(RecordKey.allCases.map(\.rawValue)).count == RecordKey.allCases.count)
        #expect(
            RecordKey.fixRecord.map(\.rawValue).joined(separator: ",")
                == "type,time,lat,lon,alt_msl,alt_hae,h_acc,v_acc,speed,speed_acc,course,course_acc,climb,mode,sats_used,device,source,age,accuracy,reason,timed_out,fix,hdop,vdop,pdop,tdop,gdop,x_acc,y_acc,time_acc,heading,mag_var,geoid_sep,integrity,integrity_reason"
        )
        #expect(RecordKey.placeFields.map(\.rawValue) == ["city", "state", "country", "country_code", "timezone"])
        #expect(RecordKey.latitude.decimals == 7 && RecordKey.horizontalAccuracy.decimals == 1 && RecordKey.speed.decimals == 2)
        #expect(RecordKey.device.decimals == nil)
    }

    @Test func homeAssistantsAttributesAreItsOwn() throws {
        let text = HomeAssistant.attributes(
            latitude: 37.5178, longitude: 126.8863, accuracy: nil, altitude: 12.46, speed: nil, course: 90,
            time: "2026-12-02T10:00:00.000Z",
            authorization: "full")
        #expect(
            text
                == #"{"latitude":37.5178000,"longitude":126.8863000,"gps_accuracy":0.0,"altitude":12.5,"speed":null,"course":90.0,"time":"2026-12-02T10:00:00.000Z","accuracy":"full"}"#
        )
        #expect(FlatJSON.parse(Array(text.utf8)) != nil)
    }
}
