// `todo`: Zarra's ToDo application in the terminal. `swift run todo --help`.
import ToDoApp

ToDoCommand.main()
