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

    /// What an integrator's editor or script writes: a BOM and a newline are what they mean and
    /// are taken off; a file that is not one token says why (never the token itself).
    @Test func aTokenFileThatIsNotOneTokenSaysWhy() throws {
        let folder = try TestPaths.temporaryDirectory("token")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/token"
        func load(_ bytes: [UInt8]) throws -> AccessToken.Loaded {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return AccessToken.load(path: path)
        }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try load(bom + Array("s3cret\r\n".utf8)) == .token(Array("s3cret".utf8)))
        #expect(try load(bom + Array("s3cret".utf8)) == .token(Array("s3cret".utf8)))
        let refused: [([UInt8], String)] = [
            (Array("s3cret\nother\n".utf8), "has more than one line"),
            (Array("s3cret\r\nother".utf8), "has more than one line"),
            (Array("s3cret other\n".utf8), "has white space inside the token"),
            (Array("s3cret\u{1}x".utf8), "has a control character"),
            (bom + bom + Array("s3cret".utf8), "byte order mark"),
            (bom + Array(" \n".utf8), "is empty"),
        ]
        for (bytes, reason) in refused {
            guard case .off(let why) = try load(bytes) else {
                Issue.record("\(bytes) loaded")
                continue
            }
            #expect(why.contains(reason), "\(why)")
            #expect(why.contains("(remote.token_file)"))
            #expect(!why.contains("s3cret"))
        }
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
