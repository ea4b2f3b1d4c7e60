def main(argv=None):
    from sandtable.rules import findings
    print("hello", findings)
    return 0
