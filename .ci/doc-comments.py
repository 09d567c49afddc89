#!/usr/bin/env python3
"""Fails when a public or open declaration in Sources/ has no /// doc comment above it."""
import glob, re, sys

SKIP = ('public static func ==', 'public func hash(into', 'public var description', 'public init(rawValue', 'public let rawValue')
missing = []
for path in sorted(glob.glob('Sources/**/*.swift', recursive=True)):
    lines = open(path, encoding='utf-8').read().split('\n')
    for i, line in enumerate(lines):
        text = line.strip()
        if not re.match(r'(public|open)\s', text) or text.startswith(SKIP):
            continue
        j = i - 1
        while j >= 0 and lines[j].strip().startswith('@'):
            j -= 1
        if j < 0 or not lines[j].strip().startswith('///'):
            missing.append(f'{path}:{i + 1}: {text[:100]}')
for m in missing:
    print(m)
if missing:
    print(f'{len(missing)} public declarations have no doc comment')
    sys.exit(1)
print('every public declaration has a doc comment')
