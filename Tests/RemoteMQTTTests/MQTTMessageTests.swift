import Testing
@testable import RemoteMQTT

@Suite struct MQTTMessageTests {
    @Test func aTextMessageCarriesItsUTF8() {
        let message = MQTTMessage(topic: "vitrine/kiosk/availability", text: "online", retain: true)
        #expect(message.payload == Array("online".utf8))
        #expect(message.retain)
    }
}
