import Foundation
import Testing

@testable import TermAttach

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Review finding 2: `URLSessionHTTPTransport` (the `https` transport on
/// Apple platforms; it builds and runs on Linux too, so it is tested here).
@Suite("Review 2: URLSessionHTTPTransport and cancellation")
struct URLSessionTransportTests {
    @Test("a request from a task already cancelled returns CancellationError at once instead of never")
    func alreadyCancelled() async throws {
        // Nothing listens there: the request must not even be needed.
        let request = URLRequest(url: URL(string: "http://127.0.0.1:9/live-sessions")!)
        let outcome = Locked<String?>(nil)
        Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                _ = try await URLSessionHTTPTransport().send(request, maxBodyBytes: 1024)
                outcome.withLock { $0 = "returned" }
            } catch is CancellationError {
                outcome.withLock { $0 = "cancelled" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        // Bounded: a request that never returns leaves its task behind.
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while outcome.withLock({ $0 }) == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(outcome.withLock { $0 } == "cancelled")
    }
}
