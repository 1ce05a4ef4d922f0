"""Japan's 47 prefectures: board data and graph (:mod:`.board`), outlines (:mod:`.geo`)."""
