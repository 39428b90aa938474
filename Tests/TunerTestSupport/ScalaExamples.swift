/// Published Scala files, as text, for the tests of the Scala reader and of `--temperament FILE.scl`.
public enum ScalaExamples {
    /// The example of the Scala format description (https://www.huygens-fokker.org/scala/scl_format.html).
    public static let meanquar = """
        ! meanquar.scl
        !
        1/4-comma meantone scale. Pietro Aaron's temperament (1523)
         12
        !
         76.04900
         193.15686
         310.26471
         5/4
         503.42157
         579.47057
         696.57843
         25/16
         889.73529
         1006.84314
         1082.89214
         2/1

        """
}
