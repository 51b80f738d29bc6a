package reporting

func inTestFile() {} // test code: not reported unless the tests flag is on
