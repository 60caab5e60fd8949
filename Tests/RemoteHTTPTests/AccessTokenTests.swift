import Foundation
import RemoteControl
import RemoteHTTP
import Testing
import TestSupport

@Suite struct AccessTokenTests {
    @Test func tokenIsReadWithoutItsNewline() throws {
        let folder = try TestPaths.temporaryDirectory("token")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "s3cret-token\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        #expect(AccessToken.load(path: folder + "/token") == .token(Array("s3cret-token".utf8)))
    }

    @Test func missingOrEmptyFilesTurnTheEndpointsOffAndSayWhy() throws {
        let folder = try TestPaths.temporaryDirectory("token")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard case .off(let missing) = AccessToken.load(path: folder + "/none") else { Issue.record("loaded"); return }
        #expect(missing.contains("cannot read the token file (remote.token_file)"))
        #expect(missing.contains(folder + "/none"))
        try " \n\n".write(toFile: folder + "/empty", atomically: true, encoding: .utf8)
        guard case .off(let empty) = AccessToken.load(path: folder + "/empty") else { Issue.record("loaded"); return }
        #expect(empty.contains("is empty"))
        guard case .off(let directory) = AccessToken.load(path: folder) else { Issue.record("loaded"); return }
        #expect(directory.contains("not a regular file"))
    }

    @Test func onlyTheRightBearerTokenAuthorizes() {
        let token = Array("abc123".utf8)
        #expect(AccessToken.authorizes("Bearer abc123", token: token))
        #expect(AccessToken.authorizes("bearer abc123", token: token))
        #expect(AccessToken.authorizes("BEARER abc123", token: token))
        #expect(!AccessToken.authorizes(nil, token: token))
        #expect(!AccessToken.authorizes("", token: token))
        #expect(!AccessToken.authorizes("Bearer ", token: token))
        #expect(!AccessToken.authorizes("Bearer abc12", token: token))
        #expect(!AccessToken.authorizes("Bearer abc1234", token: token))
        #expect(!AccessToken.authorizes("Bearer abd123", token: token))
        #expect(!AccessToken.authorizes("Basic abc123", token: token))
        #expect(!AccessToken.authorizes("Bearerabc123", token: token))
        #expect(!AccessToken.authorizes("Bearer  abc123", token: token))
    }

    @Test func constantTimeEqualityIsEquality() {
        #expect(AccessToken.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!AccessToken.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!AccessToken.constantTimeEqual([1, 2], [1, 2, 3]))
        #expect(!AccessToken.constantTimeEqual([1, 2, 3, 1], [1, 2, 3]))
        #expect(!AccessToken.constantTimeEqual([], []))
        #expect(!AccessToken.constantTimeEqual([1], []))
    }
}
