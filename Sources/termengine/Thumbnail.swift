import Foundation
import TermCore
import TermRender

enum ThumbnailCommand {
    static let usage = "termengine thumbnail FILE [--cols C --rows R] [--preview] [--minimap] -o OUT.png"
    static func run(_ arguments: inout Arguments) throws {}
}
