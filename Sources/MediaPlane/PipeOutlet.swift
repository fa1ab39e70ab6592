/// Where a local source's packets also go: the remote source of the same id across one link.
/// A source has at most one outlet per link, however many subscribers the other side has.
final class PipeOutlet {
    unowned let link: PipeLink

    init(link: PipeLink) {
        self.link = link
    }
}
