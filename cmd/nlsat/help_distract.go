package main

// distractHelp describes, for nlsat distract's help, what the command does.
const distractHelp = `Distract reads labelled records (stdin if no file or "-"), such as a split
that nlsat split wrote, and adds --count sentences to each instance that do
not change its label, so that a model's robustness to irrelevant sentences
can be measured on the same instances:

  fresh     sentences over nouns and verbs the instance does not use, which
            are satisfiable on their own; the union keeps the label (a
            product of models shows it for sat instances)
  implied   sentences over the instance's own words that its sentences
            entail (each refuted together with its negation)

The added sentences are placed at seeded positions among the others. Each
new instance is decided afresh and its label must equal the input's, which
must equal the solver's: any difference is an error. The output record
keeps the input's id, seed and fragment, lists the added sentences'
positions in distractors and the mode in distractor_mode, and carries a new
certificate (a checked model size, or a certified MUS) and difficulty; m,
n1, n2, alpha and beta are those of the new instance. So the output of a
balanced split stays balanced, and it joins the input by id. An instance
for which --count distractors cannot be found is left out and counted;
the labels left out are reported, since they unbalance the output. The
output is the same for any -j.

`
