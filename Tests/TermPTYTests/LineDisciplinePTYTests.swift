#if os(Linux) || os(macOS)
    import TermCore
    import TermPTY
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `LineDiscipline.onlcr` against the kernel's own ONLCR: a program on a
    /// PTY with the default termios writes bytes with every kind of line
    /// end, and what the master side reads is what the helper makes of them.
    @Suite("Line discipline: ONLCR as a PTY does it", .timeLimit(.minutes(1)))
    struct LineDisciplinePTYTests {
        @Test("onlcr gives the bytes a PTY sends for the same output")
        func onlcrGivesTheBytesAPTYSendsForTheSameOutput() throws {
            // printf's escapes: LF, CR LF, CR CR LF, LF LF, a lone CR, UTF-8.
            let written = Array("a\nb\r\nc\r\r\nd\n\ne\rf é\nEND".utf8)
            let pty = try PseudoTerminal.spawn(
                PTYCommand("/bin/sh", ["-c", #"printf 'a\nb\r\nc\r\r\nd\n\ne\rf \303\251\nEND'"#]),
                size: PTYSize(columns: 80, rows: 24))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = ContinuousClock.now + .seconds(10)
            // The master is non-blocking: poll until the sentinel arrives.
            while !received.suffix(3).elementsEqual("END".utf8) && ContinuousClock.now < deadline {
                let count = buffer.withUnsafeMutableBytes { read(pty.master, $0.baseAddress, $0.count) }
                if count > 0 {
                    received += buffer[..<count]
                } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                    usleep(1000)
                } else {
                    break  // EIO: the program ended and closed the PTY
                }
            }
            _ = pty.waitForExit()
            #expect(received == LineDiscipline.onlcr(written))
            #expect(received.count == written.count + 6)  // six LFs, each given a CR
        }
    }
#endif
