/// Which erases leave protected cells alone.
///
/// xterm keeps one protection mode for the whole terminal, set by the last
/// control that protected anything, and one protected attribute per cell
/// (xterm ctlseqs: DECSCA `CSI Ps " q`, SPA `ESC V`, EPA `ESC W`; xterm's
/// `screen->protected_mode`):
/// - ``dec`` after DECSCA: only the selective erases (DECSED, DECSEL,
///   DECSERA) keep protected cells; ED, EL and ECH erase them.
/// - ``iso`` after SPA: ED, EL and ECH keep protected cells, and so do
///   DECSED and DECSEL (xterm keeps that "for backward compatibility", which
///   esctest2 lists as xterm's known difference); DECSERA does not.
/// Switching mode keeps the cells already protected: the mode decides only
/// which erases respect them. RIS, DECSTR and DECSCL turn the mode off
/// (xterm's `ReallyReset`), and then no erase keeps them.
public enum ProtectionMode: UInt8, Equatable, Sendable {
    /// Nothing was protected since the last full reset.
    case off
    /// DECSCA (DEC) protection.
    case dec
    /// SPA/EPA (ISO 6429 guarded area) protection.
    case iso
}

extension TerminalState {
    /// DECSCA: 1 protects the characters printed from now on, 0 and 2 do
    /// not, other values leave that as it was; the mode becomes DEC.
    mutating func selectCharacterProtection(_ parameter: Int) {
        protectionMode = .dec
        switch parameter {
        case 0, 2: protectedPen = false
        case 1: protectedPen = true
        default: break
        }
    }

    /// SPA (ECMA-48 §8.3.142): the characters printed from now on are
    /// protected, in ISO mode.
    mutating func startProtectedArea() {
        protectionMode = .iso
        protectedPen = true
    }

    /// EPA (ECMA-48 §8.3.46): the characters printed from now on are not
    /// protected; the mode stays.
    mutating func endProtectedArea() {
        protectedPen = false
    }

    /// True when an ED, EL or ECH keeps protected cells (ISO mode).
    var normalEraseKeepsProtected: Bool { protectionMode == .iso }
    /// True when DECSED and DECSEL keep protected cells (any mode).
    var selectiveEraseKeepsProtected: Bool { protectionMode != .off }
    /// True when DECSERA keeps protected cells (DEC mode only, as xterm's
    /// `ScrnWipeRectangle`).
    var rectangleEraseKeepsProtected: Bool { protectionMode == .dec }
}
