/// Something the program asked of the terminal that the embedder may act on.
///
/// Events are delivered after each ``Terminal/feed(_:)-(UnsafeBufferPointer<UInt8>)``
/// call, in order, to ``Terminal/onEvent``, or queued for
/// ``Terminal/drainEvents()`` with ``Terminal/queuesEvents`` on. None is
/// required: with neither they are not collected.
public enum TerminalEvent: Equatable, Sendable {
    /// BEL.
    case bell
    /// The window title changed (OSC 0/2, or a title-stack pop); already sanitized.
    case titleChanged(String?)
    /// The icon name changed (OSC 0/1); already sanitized.
    case iconNameChanged(String?)
    /// OSC 7: the shell's working directory, as the URL it sent (`file://host/path`).
    case workingDirectoryChanged(String)
    /// OSC 9 or OSC 777 `notify`: a desktop notification request.
    case notification(title: String, body: String)
    /// OSC 52: the program wants to set a clipboard (`c` clipboard, `p` primary…)
    /// to `data` (already base64-decoded).
    case clipboardWrite(selection: String, data: [UInt8])
    /// OSC 52 with `?`: the program wants to read a clipboard. Refused by
    /// default (``Terminal/allowsClipboardRead``); when allowed, answer with
    /// ``Terminal/answerClipboardRead(selection:data:)``.
    case clipboardReadRequest(selection: String)
}
